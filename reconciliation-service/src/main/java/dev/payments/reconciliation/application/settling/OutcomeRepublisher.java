package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;

/** payment-service's republish: a settled payment's events published again with their own ids (port). */
public interface OutcomeRepublisher {

    /** Never throws for a failed call: every way it can end is a {@link RepublishOutcome}. */
    RepublishOutcome republish(PaymentId paymentId);
}
