package dev.payments.reconciliation.domain.settling;

/**
 * Ends a settle cycle after a number of consecutive failures (field report 001: "stop the cycle after 3 consecutive
 * failures" — 100 payments x 3 s of timeout against a dead PG would hold the cycle for 300 s). An answer from the PG
 * resets the count; a payment payment-service does not know neither counts nor resets. One per cycle: the next cycle
 * starts afresh and so probes the PG again.
 */
public final class CycleBreaker {

    private final int limit;
    private int consecutiveFailures;

    public CycleBreaker(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1");
        }
        this.limit = limit;
    }

    public void record(SyncOutcome outcome) {
        if (outcome.isFailure()) {
            consecutiveFailures++;
        } else if (outcome instanceof SyncOutcome.Answered) {
            consecutiveFailures = 0;
        }
    }

    /** Whether the cycle must stop now. */
    public boolean open() {
        return consecutiveFailures >= limit;
    }

    public int consecutiveFailures() {
        return consecutiveFailures;
    }
}
