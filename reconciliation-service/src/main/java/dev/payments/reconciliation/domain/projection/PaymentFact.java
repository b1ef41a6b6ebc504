package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * What one payment event says about its payment. Every payment event carries the payment's order, member and amount,
 * so a payment view can be created from whichever of its events arrives first.
 *
 * @param purpose          what the payment pays for
 * @param reason           why the payment is in {@code status} (decline code, failure reason, cancel reason), or null
 * @param paymentKey       the PG's key of the payment, known from {@code PaymentRequested}; the ledger audit matches
 *                         the PG's transactions on it
 * @param pgTransactionKey the PG's transaction key, known from the approval on
 * @param approvedAt       when the PG approved, if this event says so
 * @param canceledAt       when the PG cancelled, if this event says so
 */
public record PaymentFact(EventRef event, PaymentId paymentId, OrderId orderId, MemberId memberId, Money amount,
                          PaymentPurpose purpose, PaymentStatus status, String reason, String paymentKey, String pgTransactionKey,
                          Instant approvedAt,
                          Instant canceledAt) {

    public PaymentFact {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(memberId, "member id");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(status, "status");
    }
}
