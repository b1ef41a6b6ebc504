package dev.payments.reconciliation.adapter.in.kafka;

import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.reconciliation.application.projection.ProjectEvent;
import dev.payments.reconciliation.domain.projection.ProjectionEffect;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Feeds both event topics into the projection, each event once (the inbox records its id in the projection's
 * transaction). A record that is not an envelope or has an unknown type throws here and the shared error handler puts
 * it on {@code <topic>.reconciliation-service.dlt} at once; a failing database is retried, then dead-lettered too.
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
    @KafkaListener(id = "reconciliation-order-events", idIsGroup = false, topics = Topics.ORDER_EVENTS)
    void onOrderEvent(ConsumerRecord<String, String> record) {
        project(record);
    }

    @KafkaListener(id = "reconciliation-payment-events", idIsGroup = false, topics = Topics.PAYMENT_EVENTS)
    void onPaymentEvent(ConsumerRecord<String, String> record) {
        project(record);
    }

    private void project(ConsumerRecord<String, String> record) {
        EventEnvelope envelope = EventJson.read(record.value());
        AtomicReference<ProjectionEffect> effect = new AtomicReference<>();
        boolean applied = inbox.apply(envelope,
                event -> effect.set(projectEvent.project(envelope.eventId(), envelope.occurredAt(), event)));
        if (applied) {
            Counter.builder("reconciliation.projection.events")
                    .description("Events applied to the projection, by what they did to their view")
                    .tag("type", envelope.type())
                    .tag("effect", effect.get().name().toLowerCase())
                    .register(meters)
                    .increment();
        }
    }
}
