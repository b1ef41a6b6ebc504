package dev.payments.payment.domain;

/**
 * What the answer to our confirm meant, decided by {@link Payment#record}, and what the customer is told of it; mapped
 * once more, to the metrics' label.
 */
public enum Verdict {
    APPROVED(CustomerNotice.APPROVED),
    DECLINED(CustomerNotice.DECLINED),
    /** Known that no money moved. */
    NOTHING_CHARGED(CustomerNotice.FAILED),
    /** The PG refused our credentials: our configuration, not the card. Nothing charged. */
    CREDENTIALS_REJECTED(CustomerNotice.FAILED),
    /** The PG answered about another amount, order or key: UNKNOWN until a human looks. */
    MISMATCH(CustomerNotice.PENDING),
    /** Accepted for asynchronous processing (001): the callback or reconciliation settles it. */
    PROCESSING_ASYNC(CustomerNotice.PENDING),
    /** The confirm timed out and the status query did not settle it: UNKNOWN, reconciliation settles it. */
    TIMED_OUT(CustomerNotice.PENDING),
    /** Nobody knows yet otherwise (a lost answer, an unclear refusal): UNKNOWN, reconciliation settles it. */
    UNDECIDED(CustomerNotice.PENDING);

    private final CustomerNotice notice;

    Verdict(CustomerNotice notice) {
        this.notice = notice;
    }

    /** What the customer is told: "failed" only where it is known that no money moved. */
    public CustomerNotice notice() {
        return notice;
    }
}
