package dev.payments.order.application;

import dev.payments.order.domain.OrderId;

/** No order with this id. On the consumer side: an operator must look (the event goes to the dead-letter topic). */
public class OrderNotFoundException extends RuntimeException {

    private final OrderId id;

    public OrderNotFoundException(OrderId id) {
        super("No order " + id);
        this.id = id;
    }

    public OrderId id() {
        return id;
    }
}
