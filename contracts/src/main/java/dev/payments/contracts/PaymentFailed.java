package dev.payments.contracts;

import java.util.UUID;

/** Known that no money moved (the PG never got the request, or it says aborted/cancelled/expired). */
public record PaymentFailed(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                            String reason, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentFailed {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
