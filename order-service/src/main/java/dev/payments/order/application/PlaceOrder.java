package dev.payments.order.application;

import dev.payments.contracts.Money;
import dev.payments.order.domain.MemberId;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

/** A member places an order: the order row and its {@code OrderCreated} commit together. */
public class PlaceOrder {

    private final Orders orders;
    private final OrderEvents events;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public PlaceOrder(Orders orders, OrderEvents events, TransactionTemplate transaction, Clock clock) {
        this.orders = orders;
        this.events = events;
        this.transaction = transaction;
        this.clock = clock;
    }

    public Order place(Command command) {
        Order order = Order.place(OrderId.newId(), command.memberId(), command.price(), command.orderName(),
                clock.instant());
        transaction.executeWithoutResult(status -> {
            orders.insert(order);
            events.publish(order.created());
        });
        return order;
    }

    public record Command(MemberId memberId, Money price, String orderName) {
    }
}
