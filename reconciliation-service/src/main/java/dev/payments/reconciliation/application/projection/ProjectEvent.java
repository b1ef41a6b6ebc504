package dev.payments.reconciliation.application.projection;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventType;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.PaymentEvent;
import dev.payments.reconciliation.domain.projection.EventRef;
import dev.payments.reconciliation.domain.projection.OrderFact;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentFact;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.Projected;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.projection.ProjectionEffect;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Applies one event of either topic to the projection: creates the view on the first event of a payment or order
 * (whichever arrives first, so a payment seen before its order never fails), otherwise merges it by the views' rules,
 * and appends it to the history. Must run inside the inbox's transaction, which makes it happen once per event id.
 */
public final class ProjectEvent {

    private final PaymentViews payments;
    private final RefundViews refunds;
    private final OrderViews orders;
    private final EventHistory history;
    private final Clock clock;

    public ProjectEvent(PaymentViews payments, OrderViews orders, EventHistory history, Clock clock,
                        RefundViews refunds) {
        this.payments = payments;
        this.refunds = refunds;
        this.orders = orders;
        this.history = history;
        this.clock = clock;
    }

    /**
     * @param occurredAt the envelope's time; when a producer left it out, the time of receipt stands in (it only
     *                   breaks ties between contradicting outcomes, and the event must not be lost over it)
     */
    public ProjectionEffect project(UUID eventId, Instant occurredAt, DomainEvent event) {
        Instant receivedAt = clock.instant();
        EventRef ref = new EventRef(eventId, EventType.of(event).wireName(),
                occurredAt != null ? occurredAt : receivedAt);
        if (Facts.isRefund(event)) {
            return projectRefund(ref, Facts.refund(ref, (PaymentEvent) event), receivedAt);
        }
        if (event instanceof PaymentEvent paymentEvent) {
            return projectPayment(Facts.of(ref, paymentEvent), receivedAt);
        }
        return projectOrder(Facts.of(ref, (OrderEvent) event), receivedAt);
    }

    private ProjectionEffect projectPayment(PaymentFact fact, Instant receivedAt) {
        Optional<PaymentView> current = payments.lock(fact.paymentId());
        ProjectionEffect effect;
        if (current.isEmpty()) {
            payments.insert(PaymentView.firstSeen(fact, receivedAt));
            effect = ProjectionEffect.CREATED;
        } else {
            Projected<PaymentView> projected = current.get().apply(fact, receivedAt);
            payments.update(projected.view());
            effect = projected.effect();
        }
        history.append(new ProjectedEvent(fact.event(), ProjectedEvent.Aggregate.PAYMENT, fact.orderId(), fact.paymentId(),
                receivedAt, effect));
        return effect;
    }

    /** A refund of a payment: its own view, and the payment's history (the payment's view is not changed by it). */
    private ProjectionEffect projectRefund(EventRef ref, RefundView fact, Instant receivedAt) {
        Optional<RefundView> current = refunds.lock(fact.refundId());
        ProjectionEffect effect;
        if (current.isEmpty()) {
            refunds.insert(fact);
            effect = ProjectionEffect.CREATED;
        } else {
            Projected<RefundView> projected = current.get().apply(fact);
            refunds.update(projected.view());
            effect = projected.effect();
        }
        history.append(new ProjectedEvent(ref, ProjectedEvent.Aggregate.PAYMENT, fact.orderId(), fact.paymentId(),
                receivedAt, effect));
        return effect;
    }

    private ProjectionEffect projectOrder(OrderFact fact, Instant receivedAt) {
        Optional<OrderView> current = orders.lock(fact.orderId());
        ProjectionEffect effect;
        if (current.isEmpty()) {
            orders.insert(OrderView.firstSeen(fact, receivedAt));
            effect = ProjectionEffect.CREATED;
        } else {
            Projected<OrderView> projected = current.get().apply(fact, receivedAt);
            orders.update(projected.view());
            effect = projected.effect();
        }
        history.append(new ProjectedEvent(fact.event(), ProjectedEvent.Aggregate.ORDER, fact.orderId(), fact.paymentId(),
                receivedAt, effect));
        return effect;
    }
}
