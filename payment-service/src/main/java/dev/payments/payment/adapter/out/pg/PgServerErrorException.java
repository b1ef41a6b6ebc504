package dev.payments.payment.adapter.out.pg;

/** The PG answered 5xx. Retried with the same PG idempotency key, so a retry cannot approve twice. */
public final class PgServerErrorException extends PgCallException {

    private final int status;
    private final String code;

    public PgServerErrorException(int status, String code, String message) {
        super("PG answered " + status + " " + code + ": " + message, null);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    @Override
    public boolean mayHaveReachedPg() {
        return true;
    }
}
