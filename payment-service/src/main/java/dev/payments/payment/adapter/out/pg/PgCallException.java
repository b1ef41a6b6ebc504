package dev.payments.payment.adapter.out.pg;

/** A PG call that did not produce an answer. The subclass says whether the request may have reached the PG. */
public abstract sealed class PgCallException extends RuntimeException
        permits PgConnectException, PgServerErrorException, PgAnswerLostException, PgDeadlineException,
        PgUnreachableException {

    protected PgCallException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the PG may have acted on the request (and so money may have moved). */
    public abstract boolean mayHaveReachedPg();
}
