package dev.payments.reconciliation.application.operations;

/** What operators see of dead letters (port): how many wait per group, how many were re-driven. */
public interface DeadLetterObserver {

    void waiting(String group, long letters);

    void redriven(String group, long letters);
}
