package dev.payments.payment.adapter.in.kafka;

import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.payment.application.RecordOrderEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import java.util.List;

/** Keeps the payable-order view in step with {@code order.events}: each event once (inbox), a poll in one transaction. */
@Component
class OrderEventsListener {

    private final Inbox inbox;
    private final RecordOrderEvent recordOrderEvent;

    OrderEventsListener(Inbox inbox, RecordOrderEvent recordOrderEvent) {
        this.inbox = inbox;
        this.recordOrderEvent = recordOrderEvent;
    }

    @KafkaListener(topics = Topics.ORDER_EVENTS, batch = "true")
    void on(List<ConsumerRecord<String, String>> records) {
        inbox.consume(records, RecordOrderEvent::concerns, envelope -> recordOrderEvent.on(envelope.event()));
    }
}
