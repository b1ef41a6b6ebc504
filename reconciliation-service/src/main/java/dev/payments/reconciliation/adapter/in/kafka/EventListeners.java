package dev.payments.reconciliation.adapter.in.kafka;

import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.reconciliation.application.projection.ProjectEvent;
import dev.payments.reconciliation.domain.projection.ProjectionEffect;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.List;

/**
 * Feeds both event topics into the projection, each event once (the inbox records its id in the projection's
 * transaction), a poll's events in one transaction. A record that is not an envelope or has an unknown type throws
 * here and the shared error handler puts it on {@code <topic>.reconciliation-service.dlt} at once; a failing
 * database is waited out (docs/decisions/consumer-errors.md).
 */
@Component
class EventListeners {

    private final Inbox inbox;
    private final ProjectEvent projectEvent;
    private final MeterRegistry meters;

    EventListeners(Inbox inbox, ProjectEvent projectEvent, MeterRegistry meters) {
        this.inbox = inbox;
        this.projectEvent = projectEvent;
        this.meters = meters;
    }

    // idIsGroup = false: the consumer group stays spring.application.name, which names the dead-letter topics.
    @KafkaListener(id = "reconciliation-order-events", idIsGroup = false, topics = Topics.ORDER_EVENTS, batch = "true")
    void onOrderEvents(List<ConsumerRecord<String, String>> records) {
        inbox.consume(records, this::project);
    }

    @KafkaListener(id = "reconciliation-payment-events", idIsGroup = false, topics = Topics.PAYMENT_EVENTS,
            batch = "true")
    void onPaymentEvents(List<ConsumerRecord<String, String>> records) {
        inbox.consume(records, this::project);
    }

    private void project(EventEnvelope envelope) {
        ProjectionEffect effect = projectEvent.project(envelope.eventId(), envelope.occurredAt(), envelope.event());
        // Counted once the poll's transaction commits: a batch that rolls back is applied again record by record.
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                Counter.builder("reconciliation.projection.events")
                        .description("Events applied to the projection, by what they did to their view")
                        .tag("type", envelope.type())
                        .tag("effect", effect.name().toLowerCase())
                        .register(meters)
                        .increment();
            }
        });
    }
}
