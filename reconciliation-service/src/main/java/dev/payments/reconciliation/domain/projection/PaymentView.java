package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * What reconciliation believes happened to one payment, built only from {@code payment.events}.
 *
 * <p>The status follows {@link Precedence}; its {@link Bookkeeping} names the event that decided it. Facts that only
 * some events carry (PG transaction key, approval and cancel times)
 * are merged from every event, late ones included: a {@code PaymentApproved} arriving after its
 * {@code PaymentCanceled} still leaves its transaction key, which the ledger audit matches against the PG.
 *
 * @param purpose      what the payment pays for (from its events; never changes)
 * @param statusReason the reason the deciding event gave, or null
 * @param paymentKey   the PG's key of the payment (from {@code PaymentRequested}), null until that event is seen
 */
public record PaymentView(PaymentId paymentId, OrderId orderId, MemberId memberId, Money amount,
                          PaymentPurpose purpose, PaymentStatus status, String statusReason, String paymentKey, String pgTransactionKey,
                          Instant approvedAt, Instant canceledAt, Bookkeeping bookkeeping) {

    public PaymentView {
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(memberId, "member id");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(bookkeeping, "bookkeeping");
    }

    /** The view created by the first event of a payment to arrive, whichever it is. */
    public static PaymentView firstSeen(PaymentFact fact, Instant receivedAt) {
        return new PaymentView(fact.paymentId(), fact.orderId(), fact.memberId(), fact.amount(),
                fact.purpose(), fact.status(), fact.reason(), fact.paymentKey(), fact.pgTransactionKey(), fact.approvedAt(),
                fact.canceledAt(), Bookkeeping.firstSeen(fact.event(), receivedAt));
    }

    /** This view after one more event of the same payment. */
    public Projected<PaymentView> apply(PaymentFact fact, Instant receivedAt) {
        if (!paymentId.equals(fact.paymentId())) {
            throw new IllegalArgumentException("event of payment " + fact.paymentId() + " applied to " + paymentId);
        }
        EventRef event = fact.event();
        Precedence.Decision decision = Precedence.decide(status, bookkeeping.lastEventAt(), fact.status(),
                event.occurredAt());
        boolean takesOver = decision.takesOver();
        PaymentView next = new PaymentView(paymentId, orderId, memberId, amount, purpose,
                takesOver ? fact.status() : status,
                takesOver ? fact.reason() : statusReason,
                firstNonNull(paymentKey, fact.paymentKey()),
                firstNonNull(pgTransactionKey, fact.pgTransactionKey()),
                firstNonNull(approvedAt, fact.approvedAt()),
                firstNonNull(canceledAt, fact.canceledAt()),
                bookkeeping.after(event, decision, receivedAt));
        return new Projected<>(next, decision.effect());
    }

    private static <T> T firstNonNull(T current, T incoming) {
        return current != null ? current : incoming;
    }
}
