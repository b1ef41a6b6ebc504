package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.domain.projection.ProjectedEvent;

import java.time.Instant;
import java.util.UUID;

/** One event in a view's history. {@code paymentId} is null for order events. */
record HistoryEntry(UUID eventId, String type, UUID paymentId, Instant occurredAt, Instant receivedAt,
                    String effect) {

    static HistoryEntry of(ProjectedEvent event) {
        return new HistoryEntry(event.event().eventId(), event.event().type(),
                event.paymentId() == null ? null : event.paymentId().value(),
                event.event().occurredAt(), event.receivedAt(), event.effect().name());
    }
}
