package dev.payments.order.application;

import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;

import java.util.Optional;

/** Where orders are kept. Writes join the caller's transaction. */
public interface Orders {

    void insert(Order order);

    void update(Order order);

    Optional<Order> findById(OrderId id);

    /** Reads and row-locks the order for the rest of the transaction. */
    Optional<Order> lockById(OrderId id);
}
