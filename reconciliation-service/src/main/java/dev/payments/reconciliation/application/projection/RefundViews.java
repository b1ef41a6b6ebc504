package dev.payments.reconciliation.application.projection;

import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Storage of refund views (port). */
public interface RefundViews {

    Optional<RefundView> find(UUID refundId);

    /** Reads the view and locks it until the caller's transaction ends. */
    Optional<RefundView> lock(UUID refundId);

    void insert(RefundView view);

    void update(RefundView view);

    /** The refunds of one payment, oldest change first. */
    List<RefundView> ofPayment(PaymentId paymentId);
}
