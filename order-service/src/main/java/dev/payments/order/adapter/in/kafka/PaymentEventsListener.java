package dev.payments.order.adapter.in.kafka;

import dev.payments.contracts.Topics;
import dev.payments.order.application.ApplyPaymentOutcome;
import dev.payments.outbox.inbox.Inbox;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Applies each payment event once (inbox). A failure rolls the inbox row back and the shared error handler retries,
 * then parks the record on {@code payment.events.order-service.dlt}. A renewal charge's event is passed over without a
 * transaction ({@link ApplyPaymentOutcome#concerns}).
 */
@Component
class PaymentEventsListener {

    private final Inbox inbox;
    private final ApplyPaymentOutcome applyPaymentOutcome;

    PaymentEventsListener(Inbox inbox, ApplyPaymentOutcome applyPaymentOutcome) {
        this.inbox = inbox;
        this.applyPaymentOutcome = applyPaymentOutcome;
    }

    @KafkaListener(topics = Topics.PAYMENT_EVENTS)
    void on(ConsumerRecord<String, String> record) {
        inbox.consume(record, ApplyPaymentOutcome::concerns, applyPaymentOutcome::apply);
    }
}
