package dev.payments.reconciliation.application.operations;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** Who re-drove which dead letter, and who replayed which event to whom (port). */
public interface Redrives {

    /** Marks the letter re-driven; false (and nothing changes) if it already was. */
    boolean mark(RecordRef letter, String group, UUID eventId, String orderId, String operator, Instant at);

    /** The re-driven letters of the group, by where they are. */
    Map<RecordRef, Redrive> ofGroup(String group);

    /** Records that an event of the log was handed to the group again. */
    void replayed(RecordRef event, String group, UUID eventId, String orderId, String operator, Instant at);

    record Redrive(String by, Instant at) {
    }
}
