package dev.payments.contracts;

import dev.payments.testsupport.infra.TestTopic;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Events as a producer's outbox relay puts them on Kafka, for consumer tests: on their aggregate's topic, keyed by
 * order id, with the relay's headers (event id, type, CloudEvents). The golden events are sent as the golden JSON
 * text and headers of each type, with only the ids (and, when asked, the member) replaced so one test's events do not
 * collide with another's; a test that needs its own amounts or keys sends its own event, serialized in the relay's
 * envelope. Sent to the shared test broker.
 */
public final class RelayedGoldenEvents {

    private RelayedGoldenEvents() {
    }

    /** Publishes a fresh event of {@code type} for the golden member and returns its event id. */
    public static UUID publish(EventType type, UUID orderId, UUID paymentId) {
        UUID eventId = UUID.randomUUID();
        publish(type, orderId, paymentId, eventId);
        return eventId;
    }

    /** Publishes an event with a given id (publish it twice to simulate a redelivery). */
    public static void publish(EventType type, UUID orderId, UUID paymentId, UUID eventId) {
        publish(type, orderId, paymentId, eventId, GoldenEvents.MEMBER_ID);
    }

    public static void publish(EventType type, UUID orderId, UUID paymentId, UUID eventId, String memberId) {
        TestTopic.named(type.aggregateType().topic()).send(orderId.toString(),
                GoldenEvents.json(type, orderId, paymentId, eventId, memberId),
                GoldenEvents.headers(type, orderId, eventId, GoldenEvents.AT_AS_RELAYED));
    }

    /** Where a relayed event landed. */
    public record Relayed(EventEnvelope envelope, String topic, int partition, long offset) {
    }

    /** Publishes {@code event} with a fresh event id, as having happened now. */
    public static Relayed publish(DomainEvent event) {
        return publish(event, Instant.now());
    }

    /** Publishes {@code event} with a fresh event id, in the envelope and with the headers the relay sends. */
    public static Relayed publish(DomainEvent event, Instant occurredAt) {
        EventEnvelope envelope = EventEnvelope.wrap(UUID.randomUUID(), event, occurredAt, null);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(Topics.HEADER_EVENT_ID, envelope.eventId().toString());
        headers.put(Topics.HEADER_EVENT_TYPE, envelope.type());
        headers.putAll(CloudEventHeaders.of(envelope.eventId().toString(), envelope.type(), envelope.aggregateType(),
                event.orderId().toString(), occurredAt.toString()));
        String topic = EventType.of(event).aggregateType().topic();
        RecordMetadata landed = TestTopic.named(topic).send(event.orderId().toString(), EventJson.write(envelope),
                headers);
        return new Relayed(envelope, landed.topic(), landed.partition(), landed.offset());
    }

    /**
     * Sends any text with the event id and type headers only: a dead letter, a poison message, an event of a type no
     * consumer knows.
     */
    public static RecordMetadata send(String topic, String key, String value, UUID eventId, String type) {
        return TestTopic.named(topic).send(key, value,
                Map.of(Topics.HEADER_EVENT_ID, eventId.toString(), Topics.HEADER_EVENT_TYPE, type));
    }
}
