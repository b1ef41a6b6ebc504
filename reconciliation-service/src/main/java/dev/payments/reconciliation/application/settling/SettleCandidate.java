package dev.payments.reconciliation.application.settling;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.settling.SettleTrigger;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * A payment due for a settle attempt.
 *
 * @param amount the money at stake as the projection knows it, or null (an order's payment we never saw)
 * @param since  when the payment (or the stuck order) last changed, by the producer's clock
 */
public record SettleCandidate(PaymentId paymentId, OrderId orderId, SettleTrigger trigger, Money amount,
                              Instant since) {

    public SettleCandidate {
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(since, "since");
    }
}
