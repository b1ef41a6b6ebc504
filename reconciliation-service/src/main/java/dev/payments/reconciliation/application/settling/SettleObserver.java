package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.RepublishOutcome;

/** Learns what each attempt and cycle did, for metrics (port). */
public interface SettleObserver {

    void attempted(SettleAttempt attempt);

    void cycleEnded(CycleReport report);

    /** One republish of a payment whose order lost its outcome. */
    void republished(RepublishOutcome outcome);
}
