package dev.payments.contracts;

/** Events published by order-service on {@link Topics#ORDER_EVENTS}. */
public sealed interface OrderEvent extends DomainEvent
        permits OrderCreated, OrderPaymentPending, OrderPaid, OrderFailed, OrderCanceled, OrderPartiallyRefunded,
        OrderRefunded {

    @Override
    default String aggregateId() {
        return orderId().toString();
    }
}
