package dev.payments.payment.application;

import dev.payments.contracts.DomainEvent;

/** Publishes an event in the current transaction (the outbox). */
public interface PaymentEvents {

    void publish(DomainEvent event);
}
