package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.AggregateType;
import dev.payments.contracts.DomainEvent;
import dev.payments.outbox.OutboxWriter;
import dev.payments.payment.application.PaymentEventHistory;
import dev.payments.payment.application.PaymentEvents;
import dev.payments.payment.domain.PaymentId;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.List;

@Component
class OutboxPaymentEvents implements PaymentEvents, PaymentEventHistory {

    private final OutboxWriter outbox;

    OutboxPaymentEvents(OutboxWriter outbox) {
        this.outbox = outbox;
    }

    @Override
    public void publish(DomainEvent event) {
        outbox.append(event);
    }

    @Override
    public List<Resent> resend(PaymentId payment, Instant since) {
        return outbox.resend(AggregateType.PAYMENT.wireName(), payment.value().toString(), since).stream()
                .map(envelope -> new Resent(envelope.eventId(), envelope.type()))
                .toList();
    }
}
