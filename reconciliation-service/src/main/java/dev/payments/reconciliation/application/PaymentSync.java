package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.PaymentId;
import dev.payments.reconciliation.domain.SyncOutcome;

/** payment-service's operator sync: it asks the PG and settles the payment (port). */
public interface PaymentSync {

    /** Never throws for a failed call: every way it can end is a {@link SyncOutcome}. */
    SyncOutcome sync(PaymentId paymentId);
}
