package dev.payments.reconciliation.domain.projection;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * The envelope facts of one event that the projection keeps.
 *
 * @param eventId    the dedupe key every consumer uses
 * @param type       the logical type on the wire, e.g. {@code PaymentApproved}
 * @param occurredAt when the producer committed it (the producer's clock)
 */
public record EventRef(UUID eventId, String type, Instant occurredAt) {

    public EventRef {
        Objects.requireNonNull(eventId, "event id");
        Objects.requireNonNull(type, "event type");
        Objects.requireNonNull(occurredAt, "occurredAt");
    }
}
