package dev.payments.reconciliation.application.operations;

import java.time.Instant;
import java.util.UUID;

/**
 * One event a consumer group could not apply, as an operator sees it: the latest time it was dead-lettered, and
 * since when it has been failing. An event re-driven and dead-lettered again is one letter, waiting again.
 *
 * @param sourceTopic   the topic the event belongs to
 * @param letter        its latest record on the dead-letter topic (what a re-drive copies)
 * @param original      where the consumer read it the latest time
 * @param firstFailure  the first failure of its first dead-lettering
 * @param lastFailure   its latest dead-lettering
 * @param deadLettered  how many times it was dead-lettered
 * @param redrive       who re-drove its latest record and when; null while it waits
 */
public record DeadLetter(String group, String sourceTopic, UUID eventId, String orderId, String type, String kind,
                         String exception, String message, String cause, Instant firstFailure, Instant lastFailure,
                         int deadLettered, RecordRef letter, RecordRef original, Redrives.Redrive redrive) {

    public enum Status {
        /** Its effect has not happened in the group; nobody has re-driven it since it was parked. */
        WAITING,
        /** Handed back to the group; applied unless it is dead-lettered again (then it is WAITING once more). */
        REDRIVEN
    }

    public Status status() {
        return redrive == null ? Status.WAITING : Status.REDRIVEN;
    }
}
