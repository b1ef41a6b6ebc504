package dev.payments.reconciliation.domain.settling;

/** What one settle attempt achieved, as recorded against the payment. */
public enum AttemptResult {

    /** The payment has its final outcome. */
    SETTLED,
    /** The PG has not decided yet (READY, IN_PROGRESS, NOT_FOUND): try later. */
    PG_UNDECIDED,
    /** The PG could not be asked. */
    PG_FAILED,
    /** The PG holds the money and the compensating cancel failed. */
    COMPENSATION_FAILED,
    /** payment-service could not be reached or failed on its own. */
    UNAVAILABLE,
    /** payment-service does not know the payment. */
    NOT_FOUND
}
