package dev.payments.contracts;

import java.util.UUID;

/**
 * A fact that happened to one aggregate. Published through a service's outbox and keyed on Kafka by
 * {@link #orderId()}, so every event of one order lands on one partition, in order.
 */
public sealed interface DomainEvent permits OrderEvent, PaymentEvent {

    UUID orderId();

    /** Id of the aggregate that changed: the order id for order events, the payment id for payment events. */
    String aggregateId();
}
