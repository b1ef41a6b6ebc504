package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;

/** payment-service's operator sync: it asks the PG and settles the payment (port). */
public interface PaymentSync {

    /** Never throws for a failed call: every way it can end is a {@link SyncOutcome}. */
    SyncOutcome sync(PaymentId paymentId);
}
