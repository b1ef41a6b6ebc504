package dev.payments.contracts;

import java.util.UUID;

/** A confirm is about to be sent to the PG. From here on money may move: the payment must end somewhere. */
public record PaymentRequested(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                               String paymentKey, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentRequested {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
