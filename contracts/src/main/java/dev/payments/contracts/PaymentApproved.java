package dev.payments.contracts;

import java.time.Instant;
import java.util.UUID;

/** The PG approved the payment: the customer's money moved. */
public record PaymentApproved(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                              String pgTransactionKey, Instant approvedAt, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentApproved {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
