package dev.payments.order.adapter.in.web;

import dev.payments.order.domain.Order;
import dev.payments.order.domain.PaymentId;

import java.time.Instant;
import java.util.UUID;

/**
 * An order as clients see it. {@code paymentId} is the current payment attempt (null before the first);
 * {@code statusReason} says why a FAILED or CANCELED order ended there.
 */
record OrderResponse(UUID orderId, String memberId, long amount, String currency, String orderName, String status,
                     UUID paymentId, String statusReason, Instant createdAt, Instant updatedAt) {

    static OrderResponse of(Order order) {
        return new OrderResponse(order.id().value(), order.memberId().value(), order.price().amount(),
                order.price().currency(), order.orderName(), order.status().name(),
                order.paymentId().map(PaymentId::value).orElse(null), order.statusReason().orElse(null),
                order.createdAt(), order.updatedAt());
    }
}
