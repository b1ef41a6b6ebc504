package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * What reconciliation believes happened to one refund of a payment, built from the Refund events of
 * {@code payment.events}. A later state wins whatever order the events arrive in (REQUESTED < UNKNOWN < FAILED <
 * SUCCEEDED: a FAILED refund the PG booked late becomes SUCCEEDED, a SUCCEEDED one never goes back).
 *
 * @param pgTransactionKey the PG's CANCEL transaction of the refund, once it SUCCEEDED
 */
public record RefundView(UUID refundId, PaymentId paymentId, OrderId orderId, Money amount, Status status,
                         String pgTransactionKey, Instant lastEventAt) {

    /** A refund's state; what it means for the money is in docs/refunds.md. */
    public enum Status {
        REQUESTED,
        UNKNOWN,
        FAILED,
        SUCCEEDED;

        /** The PG may be giving the money back now: the settle (payment-service's) is on it. */
        public boolean inFlight() {
            return this == REQUESTED || this == UNKNOWN;
        }
    }

    public RefundView {
        Objects.requireNonNull(refundId, "refund id");
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(status, "status");
    }

    /** This view with a later event of the same refund applied; the effect says what it did. */
    public Projected<RefundView> apply(RefundView later) {
        if (later.status.ordinal() <= status.ordinal()) {
            return new Projected<>(this, ProjectionEffect.STALE);
        }
        return new Projected<>(new RefundView(refundId, paymentId, orderId, amount, later.status,
                later.pgTransactionKey != null ? later.pgTransactionKey : pgTransactionKey, later.lastEventAt),
                ProjectionEffect.ADVANCED);
    }
}
