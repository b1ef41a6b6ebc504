package dev.payments.contracts;

import java.util.UUID;

/** Events published by payment-service on {@link Topics#PAYMENT_EVENTS}. */
public sealed interface PaymentEvent extends DomainEvent
        permits PaymentRequested, PaymentApproved, PaymentDeclined, PaymentFailed, PaymentUnknown, PaymentCancelOwed,
        PaymentCanceled, RefundRequested, RefundSucceeded, RefundFailed, RefundUnknown {

    UUID paymentId();

    String memberId();

    long amount();

    String currency();

    /** What the payment pays for; consumers that follow orders leave {@link PaymentPurpose#RENEWAL} alone. */
    PaymentPurpose purpose();

    @Override
    default String aggregateId() {
        return paymentId().toString();
    }
}
