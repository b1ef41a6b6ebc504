package dev.payments.payment.adapter.out.pg;

/**
 * No attempt was made (or no further one): the reachability breaker has seen the PG refuse or fail every recent
 * attempt. This attempt sent nothing; whether an earlier attempt of the same request reached the PG is the caller's
 * to remember.
 */
public final class PgUnreachableException extends PgCallException {

    public PgUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean mayHaveReachedPg() {
        return false;
    }
}
