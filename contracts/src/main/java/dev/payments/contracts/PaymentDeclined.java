package dev.payments.contracts;

import java.util.UUID;

/** The PG answered with a business decline (4xx): no money moved, the customer was told why. */
public record PaymentDeclined(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                              String code, String message, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentDeclined {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
