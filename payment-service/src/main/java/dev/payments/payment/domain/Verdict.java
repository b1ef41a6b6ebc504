package dev.payments.payment.domain;

/** What the answer to our confirm meant, decided by {@link Payment#record}; mapped once to the answer and the metrics. */
public enum Verdict {
    APPROVED,
    DECLINED,
    /** Known that no money moved. */
    NOTHING_CHARGED,
    /** The PG refused our credentials: our configuration, not the card. Nothing charged. */
    CREDENTIALS_REJECTED,
    /** The PG answered about another amount, order or key: UNKNOWN until a human looks. */
    MISMATCH,
    /** Accepted for asynchronous processing (001): the callback or reconciliation settles it. */
    PROCESSING_ASYNC,
    /** The confirm timed out and the status query did not settle it: UNKNOWN, reconciliation settles it. */
    TIMED_OUT,
    /** Nobody knows yet otherwise (a lost answer, an unclear refusal): UNKNOWN, reconciliation settles it. */
    UNDECIDED
}
