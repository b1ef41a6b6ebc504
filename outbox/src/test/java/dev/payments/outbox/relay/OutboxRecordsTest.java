package dev.payments.outbox.relay;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The polling relay's records; that they equal Debezium's is shown end to end in RelayHandOverIntegrationTest. */
class OutboxRecordsTest {

    private static final UUID ID = UUID.fromString("8b986b2d-b658-4fcb-9b96-cc090942fc11");

    @Test
    void routesByAggregateTypeKeyedByTheOrderWithThePayloadAsValue() {
        ProducerRecord<String, String> record = OutboxRecords.toRecord(row("00-abc-def-01"));

        assertThat(record.topic()).isEqualTo("payment.events");
        assertThat(record.key()).isEqualTo("order-1");
        assertThat(record.value()).isEqualTo("{\"eventId\":\"8b986b2d-b658-4fcb-9b96-cc090942fc11\"}");
        assertThat(record.partition()).isNull();
    }

    @Test
    void carriesTheEventIdTypeTraceCreationTimeAndCloudEventsHeadersInDebeziumsOrder() {
        ProducerRecord<String, String> record = OutboxRecords.toRecord(row("00-abc-def-01"));

        assertThat(headers(record)).containsExactly("id=8b986b2d-b658-4fcb-9b96-cc090942fc11",
                "eventType=PaymentApproved", "traceparent=00-abc-def-01", "createdAt=2026-12-01T08:11:55.582800Z",
                "ce_specversion=1.0", "ce_id=8b986b2d-b658-4fcb-9b96-cc090942fc11", "ce_type=dev.payments.PaymentApproved",
                "ce_source=/payment-service", "ce_time=2026-12-01T08:11:55.582800Z", "ce_subject=order-1",
                "content-type=application/json");
    }

    @Test
    void aRowWithoutTraceHasNoTraceHeaderLikeDebeziumsNullColumn() {
        assertThat(headers(OutboxRecords.toRecord(row(null)))).noneMatch(header -> header.startsWith("traceparent="));
    }

    @Test
    void theCreationTimeAlwaysHasSixFractionalDigitsAsTheColumnHas() {
        assertThat(OutboxRecords.createdAtHeader(Instant.parse("2026-12-01T08:11:55Z")))
                .isEqualTo("2026-12-01T08:11:55.000000Z");
        assertThat(OutboxRecords.createdAtHeader(Instant.parse("2026-12-01T08:11:55.123456Z")))
                .isEqualTo("2026-12-01T08:11:55.123456Z");
    }

    private static OutboxRecords.Row row(String traceparent) {
        return new OutboxRecords.Row(7, ID, "payment", "order-1", "PaymentApproved",
                "{\"eventId\":\"8b986b2d-b658-4fcb-9b96-cc090942fc11\"}", traceparent,
                Instant.parse("2026-12-01T08:11:55.5828Z"));
    }

    private static List<String> headers(ProducerRecord<String, String> record) {
        List<String> headers = new ArrayList<>();
        for (Header header : record.headers()) {
            headers.add(header.key() + "=" + new String(header.value(), StandardCharsets.UTF_8));
        }
        return headers;
    }
}
