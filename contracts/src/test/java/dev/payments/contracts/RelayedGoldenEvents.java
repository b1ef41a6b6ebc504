package dev.payments.contracts;

import dev.payments.localstack.infra.TestTopic;

import java.util.UUID;

/**
 * The golden events as a producer's outbox relay puts them on Kafka, for consumer tests: the golden JSON text of each
 * type on its aggregate's topic, keyed by order id, with the golden headers (event id, type, CloudEvents), with only the ids (and, when
 * asked, the member) replaced so one test's events do not collide with another's. Sent to the shared test broker.
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
}
