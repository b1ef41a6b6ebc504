package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.domain.projection.RefundView;

import java.util.Optional;
import java.util.UUID;

/** Storage of refund views (port). */
public interface RefundViews {

    Optional<RefundView> find(UUID refundId);

    /** Reads the view and locks it until the caller's transaction ends. */
    Optional<RefundView> lock(UUID refundId);

    void insert(RefundView view);

    void update(RefundView view);
}
