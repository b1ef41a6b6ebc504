package dev.payments.payment.application;

import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.Refund;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundStatus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where refunds are kept, and the payment's refund amounts. Writes join the caller's transaction. The amounts live on
 * the payment's row under a check constraint (succeeded + reserved never above what was approved), so the database
 * itself refuses a refund beyond the approved amount, counting the refunds in flight.
 */
public interface Refunds {

    void insert(Refund refund);

    void update(Refund refund);

    Optional<Refund> findById(RefundId id);

    /** Oldest first. */
    List<Refund> findByPayment(PaymentId paymentId);

    /**
     * Reserves {@code amount} of the payment for a refund in flight, if that much is still refundable.
     *
     * @return false when succeeded + reserved + amount would exceed the approved amount; nothing changed
     */
    boolean reserve(PaymentId paymentId, long amount);

    /**
     * Moves a refund's amount from {@code before} (reserved or not) to what its new status says: SUCCEEDED adds it to
     * the refunded amount, FAILED only gives the reservation back.
     */
    void book(PaymentId paymentId, long amount, RefundStatus before, RefundStatus after);

    RefundAmounts amounts(PaymentId paymentId);

    /** Payments with a refund REQUESTED or UNKNOWN since before {@code before}, oldest first. */
    List<PaymentId> withUnsettledRefunds(Instant before, int limit);

    /**
     * @param refunded what succeeded refunds gave back
     * @param reserved what refunds in flight (REQUESTED, UNKNOWN) hold
     */
    record RefundAmounts(long approved, long refunded, long reserved) {

        public long refundable() {
            return approved - refunded - reserved;
        }
    }
}
