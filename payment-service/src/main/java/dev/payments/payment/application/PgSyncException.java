package dev.payments.payment.application;

/**
 * Settling with the PG failed at a known stage; nothing was written. The caller (reconciliation) retries, and counts
 * failed cancels toward an incident.
 */
public class PgSyncException extends RuntimeException {

    /** Which call to the PG failed. */
    public enum Stage { STATUS_QUERY, CANCEL }

    private final Stage stage;
    private final String pgState;

    public PgSyncException(Stage stage, String pgState, Throwable cause) {
        super(stage + " failed" + (pgState == null ? "" : " (PG state " + pgState + ")") + ": " + cause.getMessage(), cause);
        this.stage = stage;
        this.pgState = pgState;
    }

    public Stage stage() {
        return stage;
    }

    /** The PG was not called at all: every recovery slot was busy. Not a PG failure; try again shortly. */
    public boolean pgNotCalled() {
        return getCause() instanceof RecoveryCallsBusyException;
    }

    /** What the PG said before the failing call, or null when the status query itself failed. */
    public String pgState() {
        return pgState;
    }
}
