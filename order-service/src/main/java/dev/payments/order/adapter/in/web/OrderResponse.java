package dev.payments.order.adapter.in.web;

import dev.payments.contracts.Money;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderStatus;
import dev.payments.order.domain.PaymentId;
import io.swagger.v3.oas.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/**
 * An order as clients see it. {@code paymentId} is the current payment attempt (null before the first);
 * {@code statusReason} says why a FAILED or CANCELED order ended there; {@code refundedAmount} is what was given back
 * of its payment (docs/decisions/order-states.md).
 */
record OrderResponse(UUID orderId, String memberId, long amount, String currency, String orderName,
                     OrderStatus status, UUID paymentId, String statusReason,
                     @Schema(description = "What was given back of the order's payment, in the order's currency: the "
                             + "succeeded refunds' total (PARTIALLY_REFUNDED, REFUNDED), the whole amount once CANCELED, "
                             + "0 when nothing") long refundedAmount,
                     Instant createdAt, Instant updatedAt) {

    static OrderResponse of(Order order) {
        return new OrderResponse(order.id().value(), order.memberId().value(), order.price().amount(),
                order.price().currency(), order.orderName(), order.status(),
                order.paymentId().map(PaymentId::value).orElse(null), order.statusReason().orElse(null),
                order.refunded().map(Money::amount).orElse(0L), order.createdAt(), order.updatedAt());
    }
}
