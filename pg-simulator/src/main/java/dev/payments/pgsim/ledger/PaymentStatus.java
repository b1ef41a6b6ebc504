package dev.payments.pgsim.ledger;

/** Toss v1 payment statuses, as the PG reports them. */
public enum PaymentStatus {
    /** The PG is processing the confirm (or waits for the asynchronous result); money may still move. */
    IN_PROGRESS,
    /** Approved: money moved, an APPROVE transaction is on the books. */
    DONE,
    /** Approved and then cancelled in part: APPROVE and CANCEL transactions are on the books, a balance is left. */
    PARTIAL_CANCELED,
    /** Approved and then fully cancelled: APPROVE and CANCEL transactions are on the books. */
    CANCELED,
    /** Declined: no money moved. */
    ABORTED
}
