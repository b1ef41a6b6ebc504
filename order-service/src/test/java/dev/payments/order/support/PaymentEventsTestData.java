package dev.payments.order.support;

import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.TestTopic;

import java.util.Map;
import java.util.UUID;

/**
 * Payment events as payment-service's relay puts them on {@code payment.events}: the golden JSON text of each type,
 * with only its ids replaced so one test's orders and events do not collide with another's.
 */
public final class PaymentEventsTestData {

    private static final TestTopic PAYMENT_EVENTS = TestTopic.named(Topics.PAYMENT_EVENTS);

    private PaymentEventsTestData() {
    }

    /** The golden text of {@code type} about {@code orderId} / {@code paymentId}, with event id {@code eventId}. */
    public static String golden(EventType type, UUID orderId, UUID paymentId, UUID eventId) {
        return GoldenEvents.json(type, orderId, paymentId, eventId, GoldenEvents.MEMBER_ID);
    }

    /** Publishes a fresh event of {@code type} and returns its event id. */
    public static UUID publish(EventType type, UUID orderId, UUID paymentId) {
        UUID eventId = UUID.randomUUID();
        publish(type, orderId, paymentId, eventId);
        return eventId;
    }

    /** Publishes an event with a given id (publish it twice to simulate a redelivery). */
    public static void publish(EventType type, UUID orderId, UUID paymentId, UUID eventId) {
        PAYMENT_EVENTS.send(orderId.toString(), golden(type, orderId, paymentId, eventId),
                Map.of(Topics.HEADER_EVENT_ID, eventId.toString(), Topics.HEADER_EVENT_TYPE, type.wireName()));
    }
}
