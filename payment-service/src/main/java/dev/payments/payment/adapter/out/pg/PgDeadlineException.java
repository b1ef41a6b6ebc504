package dev.payments.payment.adapter.out.pg;

/** The request's overall deadline left no time for another call; it was not made. */
public final class PgDeadlineException extends PgCallException {

    public PgDeadlineException(String message) {
        super(message, null);
    }

    @Override
    public boolean mayHaveReachedPg() {
        return false;
    }
}
