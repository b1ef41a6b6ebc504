package dev.payments.order.application;

import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Reads one order with its status and current payment attempt. */
@Service
public class GetOrder {

    private final Orders orders;

    public GetOrder(Orders orders) {
        this.orders = orders;
    }

    @Transactional(readOnly = true)
    public Order get(OrderId id) {
        return orders.findById(id).orElseThrow(() -> new OrderNotFoundException(id));
    }
}
