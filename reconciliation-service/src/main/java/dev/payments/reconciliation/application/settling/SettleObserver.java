package dev.payments.reconciliation.application.settling;

/** Learns what each attempt and cycle did, for metrics (port). */
public interface SettleObserver {

    void attempted(SettleAttempt attempt);

    void cycleEnded(CycleReport report);
}
