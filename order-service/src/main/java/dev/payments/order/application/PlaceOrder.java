package dev.payments.order.application;

import dev.payments.order.domain.MemberId;
import dev.payments.order.domain.Money;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;

/** A member places an order: the order row and its {@code OrderCreated} commit together. */
@Service
public class PlaceOrder {

    private final Orders orders;
    private final OrderEvents events;
    private final Clock clock;

    public PlaceOrder(Orders orders, OrderEvents events, Clock clock) {
        this.orders = orders;
        this.events = events;
        this.clock = clock;
    }

    @Transactional
    public Order place(Command command) {
        Order order = Order.place(OrderId.newId(), command.memberId(), command.price(), command.orderName(),
                clock.instant());
        orders.insert(order);
        events.publish(order.created());
        return order;
    }

    public record Command(MemberId memberId, Money price, String orderName) {
    }
}
