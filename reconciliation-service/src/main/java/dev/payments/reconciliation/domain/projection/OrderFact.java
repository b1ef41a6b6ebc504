package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.Objects;

/**
 * What one order event says about its order. Only {@code OrderCreated} carries the order's details, so a view created
 * from a later event lacks them until that one arrives.
 *
 * @param paymentId the payment the event is about, or null ({@code OrderCreated})
 * @param reason    why the order is in {@code status} (failure or cancel reason), or null
 * @param details   member, amount and name, or null when the event does not carry them
 * @param refunded  what the order's payment's refunds add up to, for the refund events; null otherwise
 */
public record OrderFact(EventRef event, OrderId orderId, OrderStatus status, PaymentId paymentId, String reason,
                        OrderDetails details, Money refunded) {

    public OrderFact {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(status, "status");
    }
}
