package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.DomainEvent;
import dev.payments.outbox.OutboxWriter;
import dev.payments.payment.application.PaymentEvents;
import org.springframework.stereotype.Component;

@Component
class OutboxPaymentEvents implements PaymentEvents {

    private final OutboxWriter outbox;

    OutboxPaymentEvents(OutboxWriter outbox) {
        this.outbox = outbox;
    }

    @Override
    public void publish(DomainEvent event) {
        outbox.append(event);
    }
}
