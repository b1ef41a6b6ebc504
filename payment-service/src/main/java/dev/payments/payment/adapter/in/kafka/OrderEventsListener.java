package dev.payments.payment.adapter.in.kafka;

import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.payment.application.RecordOrderEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
class OrderEventsListener {

    private final Inbox inbox;
    private final RecordOrderEvent recordOrderEvent;

    OrderEventsListener(Inbox inbox, RecordOrderEvent recordOrderEvent) {
        this.inbox = inbox;
        this.recordOrderEvent = recordOrderEvent;
    }

    @KafkaListener(topics = Topics.ORDER_EVENTS)
    void on(ConsumerRecord<String, String> record) {
        inbox.consume(record, recordOrderEvent::on);
    }
}
