package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * A payment whose final outcome its order does not show: the order is still CREATED or PAYMENT_PENDING although the
 * payment was APPROVED, DECLINED, FAILED or CANCELED, or still PAID although the payment was CANCELED.
 *
 * @param outcomeAt when the payment's outcome happened (producer's clock)
 * @param attempts  republishes already asked for
 */
public record LostOutcome(PaymentId paymentId, OrderId orderId, PaymentStatus paymentStatus, OrderStatus orderStatus,
                          Instant outcomeAt, int attempts) {

    public LostOutcome {
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(paymentStatus, "payment status");
        Objects.requireNonNull(orderStatus, "order status");
        Objects.requireNonNull(outcomeAt, "outcome time");
    }
}
