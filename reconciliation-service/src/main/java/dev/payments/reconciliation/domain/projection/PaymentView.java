package dev.payments.reconciliation.domain.projection;

import dev.payments.reconciliation.domain.shared.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What reconciliation believes happened to one payment, built only from {@code payment.events}.
 *
 * <p>The status follows {@link Precedence}; the "last event" fields name the event that decided the current status
 * (not merely the latest to arrive). Facts that only some events carry (PG transaction key, approval and cancel times)
 * are merged from every event, late ones included: a {@code PaymentApproved} arriving after its
 * {@code PaymentCanceled} still leaves its transaction key, which the ledger audit matches against the PG.
 *
 * @param statusReason  the reason the deciding event gave, or null
 * @param paymentKey    the PG's key of the payment (from {@code PaymentRequested}), null until that event is seen
 * @param firstSeenAt   when this service first received an event of the payment (its own clock)
 * @param updatedAt     when this service last received one
 * @param eventsApplied distinct events applied (duplicates never reach the view: the inbox drops them)
 * @param conflicts     events that named a contradicting outcome of equal rank
 */
public record PaymentView(PaymentId paymentId, OrderId orderId, MemberId memberId, Money amount,
                          PaymentStatus status, String statusReason, String paymentKey, String pgTransactionKey,
                          Instant approvedAt, Instant canceledAt,
                          UUID lastEventId, String lastEventType, Instant lastEventAt,
                          Instant firstSeenAt, Instant updatedAt, int eventsApplied, int conflicts) {

    public PaymentView {
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(memberId, "member id");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(lastEventId, "last event id");
        Objects.requireNonNull(lastEventType, "last event type");
        Objects.requireNonNull(lastEventAt, "last event time");
        Objects.requireNonNull(firstSeenAt, "first seen");
        Objects.requireNonNull(updatedAt, "updated");
    }

    /** The view created by the first event of a payment to arrive, whichever it is. */
    public static PaymentView firstSeen(PaymentFact fact, Instant receivedAt) {
        EventRef event = fact.event();
        return new PaymentView(fact.paymentId(), fact.orderId(), fact.memberId(), fact.amount(),
                fact.status(), fact.reason(), fact.paymentKey(), fact.pgTransactionKey(), fact.approvedAt(),
                fact.canceledAt(),
                event.eventId(), event.type(), event.occurredAt(), receivedAt, receivedAt, 1, 0);
    }

    /** This view after one more event of the same payment. */
    public Projected<PaymentView> apply(PaymentFact fact, Instant receivedAt) {
        if (!paymentId.equals(fact.paymentId())) {
            throw new IllegalArgumentException("event of payment " + fact.paymentId() + " applied to " + paymentId);
        }
        EventRef event = fact.event();
        Precedence.Decision decision = Precedence.decide(status, lastEventAt, fact.status(), event.occurredAt());
        boolean takesOver = decision.takesOver();
        PaymentView next = new PaymentView(paymentId, orderId, memberId, amount,
                takesOver ? fact.status() : status,
                takesOver ? fact.reason() : statusReason,
                firstNonNull(paymentKey, fact.paymentKey()),
                firstNonNull(pgTransactionKey, fact.pgTransactionKey()),
                firstNonNull(approvedAt, fact.approvedAt()),
                firstNonNull(canceledAt, fact.canceledAt()),
                takesOver ? event.eventId() : lastEventId,
                takesOver ? event.type() : lastEventType,
                takesOver ? event.occurredAt() : lastEventAt,
                firstSeenAt, later(updatedAt, receivedAt), eventsApplied + 1,
                conflicts + (decision.effect() == ProjectionEffect.CONFLICT ? 1 : 0));
        return new Projected<>(next, decision.effect());
    }

    private static <T> T firstNonNull(T current, T incoming) {
        return current != null ? current : incoming;
    }

    private static Instant later(Instant a, Instant b) {
        return b.isAfter(a) ? b : a;
    }
}
