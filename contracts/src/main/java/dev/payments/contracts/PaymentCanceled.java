package dev.payments.contracts;

import java.time.Instant;
import java.util.UUID;

/** Money that moved was returned: the PG cancelled an approved charge (compensation or refund). */
public record PaymentCanceled(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                              String reason, Instant canceledAt, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentCanceled {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
