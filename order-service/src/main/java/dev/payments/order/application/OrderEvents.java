package dev.payments.order.application;

import dev.payments.contracts.OrderEvent;

/** Publishes an order event in the current transaction (the outbox): it exists if and only if the change commits. */
public interface OrderEvents {

    void publish(OrderEvent event);
}
