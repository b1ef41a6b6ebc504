package dev.payments.order.adapter.out.persistence;

import dev.payments.contracts.OrderEvent;
import dev.payments.order.application.OrderEvents;
import dev.payments.outbox.OutboxWriter;
import org.springframework.stereotype.Component;

/** Order events as outbox rows on the caller's connection; the library's relay streams them to {@code order.events}. */
@Component
class OutboxOrderEvents implements OrderEvents {

    private final OutboxWriter outbox;

    OutboxOrderEvents(OutboxWriter outbox) {
        this.outbox = outbox;
    }

    @Override
    public void publish(OrderEvent event) {
        outbox.append(event);
    }
}
