package dev.payments.outbox.relay;

import dev.payments.contracts.Topics;
import io.debezium.time.ZonedTimestamp;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The Kafka record of an outbox row as the polling relay sends it: the same topic, key, value and headers as
 * Debezium's Outbox EventRouter produces with {@link DebeziumSettings}, so a consumer cannot tell which relay sent it.
 */
final class OutboxRecords {

    private static final int TIMESTAMPTZ_FRACTION_DIGITS = 6;

    private OutboxRecords() {
    }

    /** An outbox row as the polling relay reads it. */
    record Row(long seq, UUID id, String aggregateType, String kafkaKey, String type, String payload,
               String traceparent, Instant createdAt) {
    }

    static ProducerRecord<String, String> toRecord(Row row) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.HEADER_EVENT_ID, bytes(row.id().toString()));
        headers.add(Topics.HEADER_EVENT_TYPE, bytes(row.type()));
        if (row.traceparent() != null) {
            headers.add(Topics.HEADER_TRACEPARENT, bytes(row.traceparent()));
        }
        headers.add(KafkaPublisher.HEADER_CREATED_AT, bytes(createdAtHeader(row.createdAt())));
        String topic = row.aggregateType() + ".events";
        return new ProducerRecord<>(topic, null, row.kafkaKey(), row.payload(),
                CloudEventsBinding.addTo(headers, topic, row.kafkaKey()));
    }

    /**
     * Debezium renders a {@code timestamptz} column as an ISO date-time in UTC with the column's six fractional
     * digits; so does the poller, with Debezium's own formatter.
     */
    static String createdAtHeader(Instant createdAt) {
        return ZonedTimestamp.toIsoString(createdAt.atZone(ZoneOffset.UTC), null, TIMESTAMPTZ_FRACTION_DIGITS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
