package dev.payments.reconciliation.application.operations;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The records on a consumer group's dead-letter topics (port). Reading changes nothing. */
public interface DeadLetterLog {

    /** Every record on the dead-letter topic of {@code group} for {@code sourceTopic}, oldest first. */
    List<Parked> parked(String sourceTopic, String group);

    /**
     * One record on a dead-letter topic, with what the consumer's error handler wrote on it.
     *
     * @param letter       where it is on the dead-letter topic
     * @param original     where the consumer read it (the source topic, or the group's re-drive topic)
     * @param eventId      the envelope's id, or null if the record is not an envelope without an id header
     * @param orderId      the record's key (every event is keyed by its order id)
     * @param type         the envelope's type, or the relay's header
     * @param kind         what the failure said about the event ({@code permanent}, {@code unclassified}), if written
     * @param exception    the exception's class, as the error handler recorded it
     * @param message      its message
     * @param cause        the class of its cause, if any
     * @param firstFailure when the record first failed in the consumer (the dead-lettering time if not written)
     * @param parkedAt     when it was dead-lettered: the record's timestamp, its last failure
     */
    record Parked(RecordRef letter, RecordRef original, UUID eventId, String orderId, String type, String kind,
                  String exception, String message, String cause, Instant firstFailure, Instant parkedAt) {
    }
}
