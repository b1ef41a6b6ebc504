package dev.payments.contracts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GoldenEventsTest {

    @ParameterizedTest
    @EnumSource(EventType.class)
    void serialisingTheSampleGivesTheGoldenFile(EventType type) {
        String written = EventJson.write(GoldenEvents.sampleEnvelope(type));

        assertThat(EventJson.readTree(written)).isEqualTo(EventJson.readTree(GoldenEvents.json(type)));
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void theGoldenFileReadsBackAsTheSampleEvent(EventType type) {
        EventEnvelope envelope = EventJson.read(GoldenEvents.json(type));

        assertThat(envelope.type()).isEqualTo(type.wireName());
        assertThat(envelope.aggregateType()).isEqualTo(type.aggregateType().wireName());
        assertThat(envelope.event()).isEqualTo(GoldenEvents.sample(type));
    }

    @ParameterizedTest
    @EnumSource(EventType.class)
    void theCloudEventsHeadersOfTheSampleAreTheGoldenHeaders(EventType type) {
        EventEnvelope envelope = GoldenEvents.sampleEnvelope(type);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(Topics.HEADER_EVENT_ID, envelope.eventId().toString());
        headers.put(Topics.HEADER_EVENT_TYPE, envelope.type());
        headers.putAll(CloudEventHeaders.of(envelope.eventId().toString(), envelope.type(), envelope.aggregateType(),
                envelope.event().orderId().toString(), GoldenEvents.AT_AS_RELAYED));

        assertThat(headers).containsExactlyEntriesOf(GoldenEvents.headers(type));
    }

    @Test
    void theCloudEventsSourceIsTheServiceOfTheTopicsAggregate() {
        assertThat(CloudEventHeaders.aggregateTypeOf(Topics.PAYMENT_EVENTS)).isEqualTo("payment");
        assertThat(CloudEventHeaders.source(CloudEventHeaders.aggregateTypeOf(Topics.ORDER_EVENTS)))
                .isEqualTo("/order-service");
        assertThatThrownBy(() -> CloudEventHeaders.aggregateTypeOf("payment.events.notification-service.dlt"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wireNamesAreLogicalNamesNotClassNames() {
        for (EventType type : EventType.values()) {
            assertThat(type.wireName()).doesNotContain(".");
            assertThat(GoldenEvents.json(type)).doesNotContain("dev.payments");
        }
    }

    @Test
    void anUnknownTypeIsReportedNotGuessed() {
        String json = GoldenEvents.json(EventType.PAYMENT_APPROVED).replace("\"PaymentApproved\"", "\"PaymentTeleported\"");

        EventEnvelope envelope = EventJson.read(json);

        assertThatThrownBy(envelope::event).isInstanceOf(UnknownEventTypeException.class)
                .hasMessageContaining("PaymentTeleported");
    }

    @Test
    void textThatIsNoEnvelopeIsMalformed() {
        assertThatThrownBy(() -> EventJson.read("{\"hello\":1}")).isInstanceOf(MalformedEventException.class);
        assertThatThrownBy(() -> EventJson.read("not json")).isInstanceOf(MalformedEventException.class);
    }

    @Test
    void shapeCheckFindsARenamedField() {
        String renamed = GoldenEvents.json(EventType.PAYMENT_APPROVED).replace("pgTransactionKey", "transactionKey");

        assertThat(GoldenEvents.shapeDifferences(renamed))
                .contains("missing payload.pgTransactionKey", "not in golden file: payload.transactionKey");
        assertThat(GoldenEvents.shapeDifferences(GoldenEvents.json(EventType.PAYMENT_APPROVED))).isEmpty();
    }

    @Test
    void aPaymentEventWrittenBeforeThePurposeWasOnTheWireIsAnOrderPayment() {
        String older = GoldenEvents.json(EventType.PAYMENT_APPROVED).replace(",\n    \"purpose\" : \"ORDER\"", "");
        assertThat(older).doesNotContain("purpose");

        PaymentEvent event = (PaymentEvent) EventJson.read(older).event();

        assertThat(event.purpose()).isEqualTo(PaymentPurpose.ORDER);
    }

    @Test
    void aRenewalPaymentSaysSoOnTheWire() {
        PaymentApproved renewal = new PaymentApproved(GoldenEvents.PAYMENT_ID, GoldenEvents.ORDER_ID,
                GoldenEvents.MEMBER_ID, GoldenEvents.AMOUNT, GoldenEvents.CURRENCY, "txn_0002",
                Instant.parse("2026-12-01T03:00:00Z"), PaymentPurpose.RENEWAL);

        String written = EventJson.write(EventEnvelope.wrap(renewal, renewal.approvedAt(), null));

        assertThat(EventJson.readTree(written).path("payload").path("purpose").asText()).isEqualTo("RENEWAL");
        assertThat(EventJson.read(written).event()).isEqualTo(renewal);
    }

    @Test
    void topicsFollowTheAggregateType() {
        assertThat(AggregateType.ORDER.topic()).isEqualTo(Topics.ORDER_EVENTS).isEqualTo("order.events");
        assertThat(AggregateType.PAYMENT.topic()).isEqualTo(Topics.PAYMENT_EVENTS).isEqualTo("payment.events");
        assertThat(Topics.deadLetter(Topics.PAYMENT_EVENTS, "notification-service"))
                .isEqualTo("payment.events.notification-service.dlt");
        assertThat(Topics.redrive(Topics.PAYMENT_EVENTS, "notification-service"))
                .isEqualTo("payment.events.notification-service.redrive");
        assertThat(Topics.source("payment.events.notification-service.redrive", "notification-service"))
                .isEqualTo(Topics.PAYMENT_EVENTS);
        assertThat(Topics.source("payment.events.order-service.redrive", "notification-service"))
                .as("another group's re-drive topic is not this group's source").isNotEqualTo(Topics.PAYMENT_EVENTS);
        assertThat(Topics.source(Topics.PAYMENT_EVENTS, "notification-service")).isEqualTo(Topics.PAYMENT_EVENTS);
    }
}
