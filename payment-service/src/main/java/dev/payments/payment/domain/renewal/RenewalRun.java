package dev.payments.payment.domain.renewal;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One execution of the renewal run, as an operator reads it afterwards. Several runs may overlap (two replicas, an
 * operator's run during the scheduled one): they share the due work row by row, each counting what it did.
 *
 * @param triggeredBy the schedule's cron expression, or the operator (token subject)
 * @param endedAt     null while running, and forever when the process died mid-run (its work is picked up by the
 *                    next run)
 */
public record RenewalRun(UUID id, Trigger trigger, String triggeredBy, Instant startedAt, Instant endedAt,
                         Outcome outcome, Counts counts) {

    public enum Trigger {
        SCHEDULE, OPERATOR
    }

    public enum Outcome {
        RUNNING,
        /** Nothing was left due when it ended. */
        COMPLETED,
        /** The PG breaker opened: the run stopped, its remaining work waits for the next run. */
        STOPPED_BREAKER_OPEN,
        /** Stopped by a shutdown; the remaining work waits for the next run. */
        STOPPED_SHUTDOWN,
        /** The run failed (the database, a bug); the remaining work waits for the next run. */
        FAILED
    }

    /**
     * @param due       periods due when the run started (including ones other runs then took)
     * @param charged   attempts this run saw approved
     * @param declined  attempts declined (dunning goes on) or declined for the last time
     * @param unknown   attempts whose outcome is unknown: reconciliation settles them
     * @param failed    attempts that charged nothing for another reason (the PG not reached); due again
     * @param remaining periods still due when the run ended
     */
    public record Counts(long due, long charged, long declined, long unknown, long failed, long remaining) {

        public static Counts none() {
            return new Counts(0, 0, 0, 0, 0, 0);
        }
    }

    public RenewalRun {
        Objects.requireNonNull(id);
        Objects.requireNonNull(trigger);
        Objects.requireNonNull(startedAt);
        Objects.requireNonNull(outcome);
        Objects.requireNonNull(counts);
    }

    public static RenewalRun start(Trigger trigger, String triggeredBy, Instant now) {
        return new RenewalRun(UUID.randomUUID(), trigger, triggeredBy, now, null, Outcome.RUNNING, Counts.none());
    }

    public RenewalRun ended(Outcome outcome, Counts counts, Instant at) {
        return new RenewalRun(id, trigger, triggeredBy, startedAt, at, outcome, counts);
    }
}
