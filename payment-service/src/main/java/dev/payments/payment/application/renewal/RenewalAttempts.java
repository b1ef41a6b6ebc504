package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.PaymentId;

/** What settling a payment needs to know of renewals. */
@FunctionalInterface
public interface RenewalAttempts {

    /** Whether a subscription period is waiting for this payment: it is a renewal attempt in flight. */
    boolean awaitsPayment(PaymentId paymentId);
}
