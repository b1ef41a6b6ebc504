package dev.payments.contracts;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.UUID;

/**
 * What travels on every topic. {@code eventId} is the consumers' dedupe key; {@code traceparent} carries the
 * W3C trace context of the request that caused the event (may be null).
 */
public record EventEnvelope(UUID eventId, String type, String aggregateType, String aggregateId,
                            Instant occurredAt, String traceparent, JsonNode payload) {

    /** Wraps a domain event with a fresh id. */
    public static EventEnvelope wrap(DomainEvent event, Instant occurredAt, String traceparent) {
        return wrap(UUID.randomUUID(), event, occurredAt, traceparent);
    }

    public static EventEnvelope wrap(UUID eventId, DomainEvent event, Instant occurredAt, String traceparent) {
        EventType type = EventType.of(event);
        return new EventEnvelope(eventId, type.wireName(), type.aggregateType().wireName(), event.aggregateId(),
                occurredAt, traceparent, EventJson.toTree(event));
    }

    /**
     * The typed payload.
     *
     * @throws UnknownEventTypeException if {@link #type()} is not a type this build knows; such a message belongs
     *                                   in a dead-letter topic, not in a log line.
     */
    public DomainEvent event() {
        EventType eventType = EventType.fromWireName(type)
                .orElseThrow(() -> new UnknownEventTypeException(type, eventId));
        return EventJson.fromTree(payload, eventType.payloadClass());
    }
}
