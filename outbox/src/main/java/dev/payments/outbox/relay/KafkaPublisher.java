package dev.payments.outbox.relay;

import dev.payments.contracts.Topics;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Publishes each batch the engine hands over and waits for every acknowledgement ({@code acks=all}, idempotent
 * producer) before marking the records processed. Only then may Debezium commit the offset and the slot advance:
 * a crash in between sends the batch again, never loses it. Nothing is sent once the relay's lease may be someone
 * else's.
 */
final class KafkaPublisher implements DebeziumEngine.ChangeConsumer<RecordChangeEvent<SourceRecord>> {

    static final String HEADER_CREATED_AT = "createdAt";

    private final Producer<String, String> producer;
    private final Clock clock;
    private final RelayMetrics metrics;
    private final BooleanSupplier mayPublish;
    private final PublishTracing tracing;

    KafkaPublisher(Producer<String, String> producer, Clock clock, RelayMetrics metrics, BooleanSupplier mayPublish,
                   PublishTracing tracing) {
        this.producer = producer;
        this.tracing = tracing;
        this.clock = clock;
        this.metrics = metrics;
        this.mayPublish = mayPublish;
    }

    @Override
    public void handleBatch(List<RecordChangeEvent<SourceRecord>> batch,
                            DebeziumEngine.RecordCommitter<RecordChangeEvent<SourceRecord>> committer)
            throws InterruptedException {
        if (!mayPublish.getAsBoolean()) {
            // Not marked processed: whoever holds the lease now publishes these from the slot or the outbox table.
            throw new RelaySession.LeaseLostException();
        }
        List<Future<RecordMetadata>> acks = new ArrayList<>(batch.size());
        List<Instant> createdAt = new ArrayList<>(batch.size());
        for (RecordChangeEvent<SourceRecord> change : batch) {
            SourceRecord record = change.record();
            if (isOutboxEvent(record)) {
                acks.add(tracing.send(producer, toProducerRecord(record)));
                createdAt.add(instantHeader(record, HEADER_CREATED_AT));
            }
        }
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get();
            } catch (ExecutionException e) {
                // Nothing of this batch is marked processed: the engine stops and the relay restarts from the last
                // committed offset, so every event is sent again rather than lost.
                throw new OutboxPublishException("Kafka did not acknowledge an outbox event", e.getCause());
            }
            Instant created = createdAt.get(i);
            if (created != null) {
                metrics.lag(Duration.between(created, clock.instant()));
            }
        }
        metrics.published(RelayMetrics.Publisher.DEBEZIUM, acks.size());
        for (RecordChangeEvent<SourceRecord> change : batch) {
            committer.markProcessed(change);
        }
        committer.markBatchFinished();
    }

    /** Heartbeats and heartbeat-table changes also flow through the engine; only routed outbox rows carry a type. */
    private static boolean isOutboxEvent(SourceRecord record) {
        return record.value() != null && record.headers().lastWithName(Topics.HEADER_EVENT_TYPE) != null;
    }

    private static ProducerRecord<String, String> toProducerRecord(SourceRecord record) {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : record.headers()) {
            if (header.value() != null) {
                headers.add(header.key(), String.valueOf(header.value()).getBytes(StandardCharsets.UTF_8));
            }
        }
        String key = String.valueOf(record.key());
        return new ProducerRecord<>(record.topic(), null, key, String.valueOf(record.value()),
                CloudEventsBinding.addTo(headers, record.topic(), key));
    }

    private static Instant instantHeader(SourceRecord record, String name) {
        Header header = record.headers().lastWithName(name);
        if (header == null || header.value() == null) {
            return null;
        }
        Object value = header.value();
        if (value instanceof Number micros) {
            // Debezium's MicroTimestamp / ZonedTimestamp variants; created_at is timestamptz, sent as ISO text.
            return Instant.EPOCH.plus(Duration.ofNanos(micros.longValue() * 1000));
        }
        return Instant.parse(String.valueOf(value));
    }
}
