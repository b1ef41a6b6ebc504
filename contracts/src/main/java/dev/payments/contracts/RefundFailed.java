package dev.payments.contracts;

import java.util.UUID;

/** The PG did not give the refund's amount back (it refused, or never booked it); its reservation is released. */
public record RefundFailed(UUID refundId, UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                           String reason, PaymentPurpose purpose) implements PaymentEvent {

    public RefundFailed {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
