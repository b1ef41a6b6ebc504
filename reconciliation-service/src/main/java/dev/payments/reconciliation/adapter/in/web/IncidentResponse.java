package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.domain.incidents.Incident;

import java.time.Instant;
import java.util.UUID;

/** An incident as operators see it. */
record IncidentResponse(UUID id, String subject, String reason, String state, UUID paymentId, UUID orderId,
                        Long amount, String currency, String pgTransactionKey, String detail, int attempts,
                        Instant openedAt, String acknowledgedBy, Instant acknowledgedAt, String acknowledgeNote,
                        String resolvedBy, Instant resolvedAt, String outcome, String resolution, Instant updatedAt) {

    static IncidentResponse of(Incident i) {
        return new IncidentResponse(i.id().value(), i.subject(), i.reason().name(), i.state().name(),
                i.paymentId() == null ? null : i.paymentId().value(), i.orderId() == null ? null : i.orderId().value(),
                i.amount() == null ? null : i.amount().amount(), i.amount() == null ? null : i.amount().currency(),
                i.pgTransactionKey(), i.detail(), i.attempts(), i.openedAt(), i.acknowledgedBy(), i.acknowledgedAt(),
                i.acknowledgeNote(), i.resolvedBy(), i.resolvedAt(),
                i.outcome() == null ? null : i.outcome().name(), i.resolution(), i.updatedAt());
    }
}
