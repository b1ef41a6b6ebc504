package dev.payments.reconciliation.domain.projection;

import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of the projection's event history: which event touched which order or payment, and with what effect.
 * The history is append-only; it lets an operator (and the later ledger audit and replay dry run) see why a view is
 * what it is.
 *
 * @param aggregate  whose event it is: a payment's history holds only its own events, not the order events that name it
 * @param paymentId  the payment the event is about or names, or null ({@code OrderCreated})
 * @param receivedAt when this service applied it (its own clock)
 */
public record ProjectedEvent(EventRef event, Aggregate aggregate, OrderId orderId, PaymentId paymentId,
                             Instant receivedAt, ProjectionEffect effect) {

    /** The aggregate that published the event. */
    public enum Aggregate {
        ORDER,
        PAYMENT
    }

    public ProjectedEvent {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(aggregate, "aggregate");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(receivedAt, "received");
        Objects.requireNonNull(effect, "effect");
    }
}
