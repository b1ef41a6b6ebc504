package dev.payments.notification.adapter.in.kafka;

import dev.payments.contracts.Topics;
import dev.payments.notification.application.RecordPaymentNotifications;
import dev.payments.notification.domain.NotificationPolicy;
import dev.payments.outbox.inbox.Inbox;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * Stores the notifications of each payment event once (inbox), a poll's events in one transaction; an event that earns
 * no notification is passed over without one ({@link NotificationPolicy#concerns}). Runs on at most
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

    @KafkaListener(topics = Topics.PAYMENT_EVENTS, batch = "true")
    void on(List<ConsumerRecord<String, String>> records) {
        inbox.consume(records, NotificationPolicy::concerns,
                envelope -> recordPaymentNotifications.record(envelope.eventId(), envelope.event()));
    }
}
