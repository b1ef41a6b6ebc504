package dev.payments.payment.adapter.out.pg;

/**
 * The request was sent and no answer came: read timeout, or the connection dropped. Money may have moved. Not
 * retried (confirming again only loads a struggling PG); the status query asks instead.
 */
public final class PgAnswerLostException extends PgCallException {

    private final boolean timedOut;

    public PgAnswerLostException(String message, boolean timedOut, Throwable cause) {
        super(message, cause);
        this.timedOut = timedOut;
    }

    public boolean timedOut() {
        return timedOut;
    }

    @Override
    public boolean mayHaveReachedPg() {
        return true;
    }
}
