package dev.payments.reconciliation.domain.projection;

import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What reconciliation believes happened to one order, built only from {@code order.events}: the order's state as
 * order-service published it. Its payments are separate {@link PaymentView}s, joined by order id when read.
 *
 * <p>The status follows {@link Precedence}, as for payments. A view may be created by a later event when
 * {@code OrderCreated} has not been seen (a consumer group started on a trimmed topic, or that event is in the
 * dead-letter topic); its details stay null until {@code OrderCreated} arrives.
 *
 * @param details   member, amount and name from {@code OrderCreated}, or null if not seen yet
 * @param paymentId the payment named by the deciding event (or by any event, if the deciding one names none)
 */
public record OrderView(OrderId orderId, OrderDetails details, OrderStatus status, String statusReason,
                        PaymentId paymentId, UUID lastEventId, String lastEventType, Instant lastEventAt,
                        Instant firstSeenAt, Instant updatedAt, int eventsApplied, int conflicts) {

    public OrderView {
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lastEventId, "last event id");
        Objects.requireNonNull(lastEventType, "last event type");
        Objects.requireNonNull(lastEventAt, "last event time");
        Objects.requireNonNull(firstSeenAt, "first seen");
        Objects.requireNonNull(updatedAt, "updated");
    }

    /** The view created by the first event of an order to arrive, whichever it is. */
    public static OrderView firstSeen(OrderFact fact, Instant receivedAt) {
        EventRef event = fact.event();
        return new OrderView(fact.orderId(), fact.details(), fact.status(), fact.reason(), fact.paymentId(),
                event.eventId(), event.type(), event.occurredAt(), receivedAt, receivedAt, 1, 0);
    }

    /** This view after one more event of the same order. */
    public Projected<OrderView> apply(OrderFact fact, Instant receivedAt) {
        if (!orderId.equals(fact.orderId())) {
            throw new IllegalArgumentException("event of order " + fact.orderId() + " applied to " + orderId);
        }
        EventRef event = fact.event();
        Precedence.Decision decision = Precedence.decide(status, lastEventAt, fact.status(), event.occurredAt());
        boolean takesOver = decision.takesOver();
        PaymentId payment = takesOver && fact.paymentId() != null ? fact.paymentId()
                : paymentId != null ? paymentId : fact.paymentId();
        OrderView next = new OrderView(orderId,
                details != null ? details : fact.details(),
                takesOver ? fact.status() : status,
                takesOver ? fact.reason() : statusReason,
                payment,
                takesOver ? event.eventId() : lastEventId,
                takesOver ? event.type() : lastEventType,
                takesOver ? event.occurredAt() : lastEventAt,
                firstSeenAt, receivedAt.isAfter(updatedAt) ? receivedAt : updatedAt, eventsApplied + 1,
                conflicts + (decision.effect() == ProjectionEffect.CONFLICT ? 1 : 0));
        return new Projected<>(next, decision.effect());
    }
}
