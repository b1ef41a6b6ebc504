package dev.payments.order.application;

import dev.payments.order.domain.MemberId;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;

import java.util.Optional;

/** Reads one of a member's orders with its status and current payment attempt (one SELECT: no transaction of its own). */
public class GetOrder {

    private final Orders orders;

    public GetOrder(Orders orders) {
        this.orders = orders;
    }

    /** @return empty also when the order is another member's: its id reveals nothing */
    public Optional<Order> get(OrderId id, MemberId member) {
        return orders.findById(id).filter(order -> order.memberId().equals(member));
    }
}
