package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.util.Map;
import java.util.Optional;

/** Storage of order views (port). */
public interface OrderViews {

    Optional<OrderView> find(OrderId orderId);

    /** Reads the view and locks it until the caller's transaction ends. */
    Optional<OrderView> lock(OrderId orderId);

    /** @throws RuntimeException if a view of that order exists (a concurrent first event: the retry then updates) */
    void insert(OrderView view);

    void update(OrderView view);

    Map<OrderStatus, Long> countByStatus();

    long conflicts();
}
