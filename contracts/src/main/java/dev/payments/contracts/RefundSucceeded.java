package dev.payments.contracts;

import java.time.Instant;
import java.util.UUID;

/**
 * The PG gave {@code amount} of the payment back. {@code refundedTotal} is what the payment's succeeded refunds add up
 * to with this one; once it equals {@code paymentAmount} the payment is refunded in full.
 *
 * @param pgTransactionKey the PG's CANCEL transaction for this refund
 */
public record RefundSucceeded(UUID refundId, UUID paymentId, UUID orderId, String memberId, long amount,
                              String currency, long refundedTotal, long paymentAmount, String pgTransactionKey,
                              Instant refundedAt, PaymentPurpose purpose) implements PaymentEvent {

    public RefundSucceeded {
        purpose = PaymentPurpose.orOrder(purpose);
    }

    /** Nothing of the payment is left to refund. */
    public boolean refundedInFull() {
        return refundedTotal >= paymentAmount;
    }
}
