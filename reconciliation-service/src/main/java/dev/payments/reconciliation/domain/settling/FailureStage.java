package dev.payments.reconciliation.domain.settling;

/** Where a failed sync broke, which decides whether it is the PG being down or a compensation that fails. */
public enum FailureStage {

    /** The PG could not be asked for the order's status: the PG (or the way to it) is down. */
    STATUS_QUERY,
    /** The PG said DONE and refused, or failed, the compensating cancel: money is held that must be returned. */
    CANCEL,
    /** The answer did not say; the settler diagnoses it by asking the PG itself. */
    UNKNOWN
}
