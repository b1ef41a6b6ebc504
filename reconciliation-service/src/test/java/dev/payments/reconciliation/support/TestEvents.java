package dev.payments.reconciliation.support;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.SharedTestInfrastructure;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

/**
 * Publishes events as the outbox relay does: the envelope as JSON, key = order id, event id and type in headers, on
 * the aggregate's topic. One producer per test JVM.
 */
public final class TestEvents {

    private static KafkaProducer<String, String> producer;

    private TestEvents() {
    }

    /** @return the envelope sent (its event id is the consumers' dedupe key) */
    public static EventEnvelope send(DomainEvent event) {
        return send(event, Instant.now());
    }

    public static EventEnvelope send(DomainEvent event, Instant occurredAt) {
        return publish(event, occurredAt).envelope();
    }

    /** Where a sent event landed. */
    public record Published(EventEnvelope envelope, String topic, int partition, long offset) {
    }

    public static Published publish(DomainEvent event) {
        return publish(event, Instant.now());
    }

    public static Published publish(DomainEvent event, Instant occurredAt) {
        EventEnvelope envelope = EventEnvelope.wrap(UUID.randomUUID(), event, occurredAt, null);
        RecordMetadata metadata = sendRaw(topicOf(event), event.orderId().toString(), EventJson.write(envelope),
                envelope.eventId(), EventType.of(event).wireName());
        return new Published(envelope, metadata.topic(), metadata.partition(), metadata.offset());
    }

    public static String topicOf(DomainEvent event) {
        return event instanceof OrderEvent ? Topics.ORDER_EVENTS : Topics.PAYMENT_EVENTS;
    }

    public static RecordMetadata sendRaw(String topic, String key, String value, UUID eventId, String type) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, value);
        record.headers().add(Topics.HEADER_EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        record.headers().add(Topics.HEADER_EVENT_TYPE, type.getBytes(StandardCharsets.UTF_8));
        try {
            return producer().send(record).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not send " + type, e.getCause());
    }
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfrastructure.kafka().bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true), new StringSerializer(), new StringSerializer());
            Runtime.getRuntime().addShutdownHook(new Thread(producer::close, "test-events-producer-close"));
    }
        return producer;
    }
}
