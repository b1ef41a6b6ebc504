package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.domain.shared.OrderId;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Reads events back from the topics (port), for the replay dry run. */
public interface EventLog {

    /** The order's records on {@code topic} (key = order id), oldest first, from {@code since} (or the start). */
    List<LoggedEvent> eventsOfOrder(String topic, OrderId orderId, Instant since);

    /** Event ids of the order's records on the group's dead-letter topic of {@code topic}. */
    Set<UUID> deadLettered(String topic, String group, OrderId orderId);

    /**
     * @param eventId the envelope's id, or null if the record is not an envelope
     * @param type    the envelope's type, or the record's header
     */
    record LoggedEvent(String topic, int partition, long offset, Instant timestamp, UUID eventId, String type) {
    }
}
