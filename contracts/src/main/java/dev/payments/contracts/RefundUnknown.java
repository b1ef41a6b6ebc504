package dev.payments.contracts;

import java.util.UUID;

/**
 * The PG's answer to the refund was lost: it may have given the money back. Its amount stays reserved until the PG's
 * cancels of the payment settle it.
 */
public record RefundUnknown(UUID refundId, UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                            String reason, PaymentPurpose purpose) implements PaymentEvent {

    public RefundUnknown {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
