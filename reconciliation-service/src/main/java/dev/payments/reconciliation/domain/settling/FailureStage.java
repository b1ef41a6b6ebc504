package dev.payments.reconciliation.domain.settling;

/**
 * Where a failed sync broke, as payment-service's 502 {@code PG_SYNC_FAILED} names it ({@code stage}): whether the PG is
 * down or a compensation fails. payment-service decides it where it calls the PG, so the settler never asks the PG.
 */
public enum FailureStage {

    /** The PG could not be asked for the order's status: the PG (or the way to it) is down. */
    STATUS_QUERY,
    /** The PG said DONE and refused, or failed, the compensating cancel: money is held that must be returned. */
    CANCEL
}
