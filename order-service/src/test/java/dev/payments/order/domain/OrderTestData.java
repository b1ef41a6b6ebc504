package dev.payments.order.domain;

import dev.payments.contracts.Money;

import java.time.Instant;
import java.util.UUID;

/** Builds orders in any state through the aggregate's own verbs, never through setters. */
public final class OrderTestData {

    public static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");
    /** What a PARTIALLY_REFUNDED order built here had given back (of the default price of 15,000). */
    public static final long PARTLY_REFUNDED = 4_000;

    private OrderId id = OrderId.newId();
    private MemberId memberId = new MemberId("member-1");
    private Money price = new Money(15_000, "KRW");
    private OrderStatus status = OrderStatus.CREATED;
    private PaymentId payment = newPaymentId();

    private OrderTestData() {
    }

    public static OrderTestData anOrder() {
        return new OrderTestData();
    }

    public static PaymentId newPaymentId() {
        return new PaymentId(UUID.randomUUID());
    }

    public OrderTestData withId(OrderId orderId) {
        this.id = orderId;
        return this;
    }

    public OrderTestData withPrice(Money money) {
        this.price = money;
        return this;
    }

    /** The order in {@code target}; every state but CREATED is reached through {@code paymentId}. */
    public OrderTestData in(OrderStatus target, PaymentId paymentId) {
        this.status = target;
        this.payment = paymentId;
        return this;
    }

    public Order build() {
        Order order = Order.place(id, memberId, price, "Annual plan", T0);
        Instant at = T0.plusSeconds(1);
        switch (status) {
            case CREATED:
                break;
            case PAYMENT_PENDING:
                order.startPayment(payment, at);
                break;
            case PAID:
                order.startPayment(payment, at);
                order.markPaid(payment, price, at);
                break;
            case FAILED:
                order.startPayment(payment, at);
                order.markFailed(payment, Order.PAYMENT_DECLINED, at);
                break;
            case PARTIALLY_REFUNDED:
                order.startPayment(payment, at);
                order.markPaid(payment, price, at);
                order.refundSucceeded(payment, new Money(PARTLY_REFUNDED, price.currency()), price, at);
                break;
            case REFUNDED:
                order.startPayment(payment, at);
                order.markPaid(payment, price, at);
                order.refundSucceeded(payment, price, price, at);
                break;
            case CANCELED:
                order.startPayment(payment, at);
                order.markPaid(payment, price, at);
                order.paymentCanceled(payment, "CUSTOMER_REQUEST", at);
                break;
            default:
                throw new IllegalArgumentException("Unknown state " + status);
        }
        return order;
    }
}
