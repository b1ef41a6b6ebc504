package dev.payments.notification.adapter.in.kafka;

import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.notification.application.RecordPaymentNotifications;
import dev.payments.outbox.inbox.Inbox;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Stores the notifications of each payment event once (inbox). Runs on at most
 * {@code spring.kafka.listener.concurrency} threads (4 by default) with this service's own connections; it only
 * writes rows, so nothing it does can hold or wait for a connection of the payment path (seed 000).
 */
@Component
class PaymentEventsListener {

    private final Inbox inbox;
    private final RecordPaymentNotifications recordPaymentNotifications;

    PaymentEventsListener(Inbox inbox, RecordPaymentNotifications recordPaymentNotifications) {
        this.inbox = inbox;
        this.recordPaymentNotifications = recordPaymentNotifications;
    }

    @KafkaListener(topics = Topics.PAYMENT_EVENTS)
    void on(ConsumerRecord<String, String> record) {
        // The envelope is read here rather than in Inbox#consume because each notification's identity includes the
        // event id, which Inbox#consume does not hand to the effect.
        EventEnvelope envelope = EventJson.read(record.value());
        inbox.apply(envelope, event -> recordPaymentNotifications.record(envelope.eventId(), event));
    }
}
