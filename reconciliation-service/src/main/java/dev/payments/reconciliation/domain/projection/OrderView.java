package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * What reconciliation believes happened to one order, built only from {@code order.events}: the order's state as
 * order-service published it. Its payments are separate {@link PaymentView}s, joined by order id when read.
 *
 * <p>The status follows {@link Precedence}, as for payments. A view may be created by a later event when
 * {@code OrderCreated} has not been seen (a consumer group started on a trimmed topic, or that event is in the
 * dead-letter topic); its details stay null until {@code OrderCreated} arrives.
 *
 * @param details     member, amount and name from {@code OrderCreated}, or null if not seen yet
 * @param paymentId   the payment named by the deciding event (or by any event, if the deciding one names none)
 * @param refunded    the highest refunded total an {@code OrderPartiallyRefunded} or {@code OrderRefunded} told, or
 *                    null: totals only grow, so the highest is the latest whatever order the events came in
 * @param bookkeeping the deciding event and what was received, as for payments
 */
public record OrderView(OrderId orderId, OrderDetails details, OrderStatus status, String statusReason,
                        PaymentId paymentId, Money refunded, Bookkeeping bookkeeping) {

    public OrderView {
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(bookkeeping, "bookkeeping");
    }

    /** The view created by the first event of an order to arrive, whichever it is. */
    public static OrderView firstSeen(OrderFact fact, Instant receivedAt) {
        return new OrderView(fact.orderId(), fact.details(), fact.status(), fact.reason(), fact.paymentId(),
                fact.refunded(), Bookkeeping.firstSeen(fact.event(), receivedAt));
    }

    /** This view after one more event of the same order. */
    public Projected<OrderView> apply(OrderFact fact, Instant receivedAt) {
        if (!orderId.equals(fact.orderId())) {
            throw new IllegalArgumentException("event of order " + fact.orderId() + " applied to " + orderId);
        }
        EventRef event = fact.event();
        boolean refundedMore = fact.refunded() != null
                && (refunded == null || fact.refunded().amount() > refunded.amount());
        // A further partial refund keeps the state but raises the total: it is the latest word on the order.
        Precedence.Decision decision = status == OrderStatus.PARTIALLY_REFUNDED
                && fact.status() == OrderStatus.PARTIALLY_REFUNDED && refundedMore
                ? new Precedence.Decision(ProjectionEffect.ADVANCED, true)
                : Precedence.decide(status, bookkeeping.lastEventAt(), fact.status(), event.occurredAt());
        boolean takesOver = decision.takesOver();
        PaymentId payment = takesOver && fact.paymentId() != null ? fact.paymentId()
                : paymentId != null ? paymentId : fact.paymentId();
        OrderView next = new OrderView(orderId,
                details != null ? details : fact.details(),
                takesOver ? fact.status() : status,
                takesOver ? fact.reason() : statusReason,
                payment,
                refundedMore ? fact.refunded() : refunded,
                bookkeeping.after(event, decision, receivedAt));
        return new Projected<>(next, decision.effect());
    }

    /**
     * What was given back of the order's payment, as far as the order's events tell: the refunds' total, or the whole
     * price once CANCELED (when {@code OrderCreated} was seen; the refunds' total until then); 0 for nothing.
     */
    public long refundedAmount() {
        if (status == OrderStatus.CANCELED && details != null) {
            return details.amount().amount();
        }
        return refunded == null ? 0 : refunded.amount();
    }
}
