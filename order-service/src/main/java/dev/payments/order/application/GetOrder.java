package dev.payments.order.application;

import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;

/** Reads one order with its status and current payment attempt (one SELECT: no transaction of its own). */
public class GetOrder {

    private final Orders orders;

    public GetOrder(Orders orders) {
        this.orders = orders;
    }

    public Order get(OrderId id) {
        return orders.findById(id).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
