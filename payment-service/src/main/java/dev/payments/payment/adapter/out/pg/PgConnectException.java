package dev.payments.payment.adapter.out.pg;

/** No TCP connection: the request never left, nothing happened at the PG. Safe to retry. */
public final class PgConnectException extends PgCallException {

    public PgConnectException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean mayHaveReachedPg() {
        return false;
    }
}
