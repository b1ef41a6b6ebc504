package dev.payments.payment.adapter.out.pg;

/** The PG answered 5xx. Retried with the same PG idempotency key, so a retry cannot approve twice. */
public final class PgServerErrorException extends PgCallException {

    public PgServerErrorException(int status, String code, String message) {
        super("PG answered " + status + " " + code + ": " + message, null);
    }

    @Override
    public boolean mayHaveReachedPg() {
        return true;
    }
}
