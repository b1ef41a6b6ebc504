package dev.payments.contracts;

import java.util.UUID;

/**
 * A refund of part (or all) of an approved payment was accepted and its amount reserved: from now on the PG may be
 * asked to give it back. {@code amount} is the refund's, {@code paymentAmount} what was approved.
 *
 * @param requestedBy who asked: the member, or the operator's subject
 */
public record RefundRequested(UUID refundId, UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                              long paymentAmount, String requestedBy, PaymentPurpose purpose) implements PaymentEvent {

    public RefundRequested {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
