package dev.payments.reconciliation.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of the projection's event history: which event touched which order or payment, and with what effect.
 * The history is append-only; it lets an operator (and the later ledger audit and replay dry run) see why a view is
 * what it is.
 *
 * @param paymentId the payment, or null for an order event
 * @param receivedAt when this service applied it (its own clock)
 */
public record ProjectedEvent(EventRef event, OrderId orderId, PaymentId paymentId, Instant receivedAt,
                             ProjectionEffect effect) {

    public ProjectedEvent {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(receivedAt, "received");
        Objects.requireNonNull(effect, "effect");
    }
}
