package dev.payments.order.adapter.in.kafka;

import dev.payments.contracts.Topics;
import dev.payments.order.application.ApplyPaymentOutcome;
import dev.payments.outbox.inbox.Inbox;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * Applies each payment event once (inbox), a poll's events in one transaction. A failure rolls the inbox row back and
 * the shared error handler retries, then parks the record on {@code payment.events.order-service.dlt}. A renewal charge's event is passed over without a
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

    @KafkaListener(topics = Topics.PAYMENT_EVENTS, batch = "true")
    void on(List<ConsumerRecord<String, String>> records) {
        inbox.consume(records, ApplyPaymentOutcome::concerns, envelope -> applyPaymentOutcome.apply(envelope.event()));
    }
}
