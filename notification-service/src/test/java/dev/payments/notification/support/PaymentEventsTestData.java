package dev.payments.notification.support;

import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.TestTopic;

import java.util.Map;
import java.util.UUID;

/**
 * Payment events as payment-service's relay puts them on {@code payment.events}: the golden JSON text of each type,
 * with only its ids (and, when asked, the member) replaced so tests do not collide.
 */
public final class PaymentEventsTestData {

    private static final TestTopic PAYMENT_EVENTS = TestTopic.named(Topics.PAYMENT_EVENTS);

    private PaymentEventsTestData() {
    }

    public static String golden(EventType type, UUID orderId, UUID paymentId, UUID eventId, String memberId) {
        return GoldenEvents.json(type, orderId, paymentId, eventId, memberId);
    }

    /** Publishes a fresh event of {@code type} for the golden member and returns its event id. */
    public static UUID publish(EventType type, UUID orderId, UUID paymentId) {
        UUID eventId = UUID.randomUUID();
        publish(type, orderId, paymentId, eventId, GoldenEvents.MEMBER_ID);
        return eventId;
    }

    /** Publishes an event with a given id (publish it twice to simulate a redelivery). */
    public static void publish(EventType type, UUID orderId, UUID paymentId, UUID eventId, String memberId) {
        PAYMENT_EVENTS.send(orderId.toString(), golden(type, orderId, paymentId, eventId, memberId),
                Map.of(Topics.HEADER_EVENT_ID, eventId.toString(), Topics.HEADER_EVENT_TYPE, type.wireName()));
    }
}
