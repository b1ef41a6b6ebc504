package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Storage of payment views (port). */
public interface PaymentViews {

    Optional<PaymentView> find(PaymentId paymentId);

    /** Reads the view and locks it until the caller's transaction ends, so two events of one payment never race. */
    Optional<PaymentView> lock(PaymentId paymentId);

    /** @throws RuntimeException if a view of that payment exists (a concurrent first event: the retry then updates) */
    void insert(PaymentView view);

    void update(PaymentView view);

    /** The order's payments, oldest first. */
    List<PaymentView> byOrder(OrderId orderId);

    Map<PaymentStatus, Long> countByStatus();

    long conflicts();
}
