package dev.payments.reconciliation.domain.ledger;

/** The PG's cancels of one payment key: the first, the last, and what they gave back together. */
record PgCancels(PgTransaction first, PgTransaction last, long amount) {

    static PgCancels of(PgTransaction cancel) {
        return new PgCancels(cancel, cancel, cancel.amount());
    }

    PgCancels plus(PgCancels other) {
        return new PgCancels(earlier(first, other.first), later(last, other.last), amount + other.amount);
    }

    private static PgTransaction earlier(PgTransaction a, PgTransaction b) {
        return b.transactedAt().isBefore(a.transactedAt()) ? b : a;
    }

    private static PgTransaction later(PgTransaction a, PgTransaction b) {
        return b.transactedAt().isAfter(a.transactedAt()) ? b : a;
    }
}
