package dev.payments.contracts;

import java.util.UUID;

/** The PG's answer was lost: money may have moved. Never final; reconciliation settles it with the PG. */
public record PaymentUnknown(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                             String reason, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentUnknown {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
