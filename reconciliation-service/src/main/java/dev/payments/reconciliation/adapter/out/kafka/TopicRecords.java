package dev.payments.reconciliation.adapter.out.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.Topics;
import dev.payments.contracts.EventJson;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Reading records back with a group-less consumer (assign and seek, never commit): looking changes nothing. */
final class TopicRecords {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private TopicRecords() {
    }

    /** The service's consumer settings (spring.kafka.*, so security too) without a group, never committing. */
    static Map<String, Object> readerConfig(Map<String, Object> consumerConfig) {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Asking for a dead-letter topic nobody has written to yet must not create it: looking changes nothing, and
        // reconciliation's principal may read other groups' dead-letter topics, not create them (docs/security.md).
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        return Map.copyOf(config);
    }

    /** Every record of the partitions from {@code since} (or the start) up to their end when we looked. */
    static List<ConsumerRecord<String, String>> read(KafkaConsumer<String, String> consumer,
                                                             List<TopicPartition> partitions, Instant since) {
        consumer.assign(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        if (since == null) {
            consumer.seekToBeginning(partitions);
        } else {
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, since.toEpochMilli()));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
            partitions.forEach(tp -> {
                OffsetAndTimestamp at = found.get(tp);
                consumer.seek(tp, at == null ? ends.get(tp) : at.offset());
            });
        }
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("reading " + partitions + " did not finish within " + READ_TIMEOUT);
            }
            consumer.poll(POLL).forEach(records::add);
        }
        return records;
    }

    /** The envelope's id; the relay's {@code id} header when the value is not an envelope. */
    static UUID eventId(ConsumerRecord<String, String> record) {
        try {
            JsonNode id = EventJson.readTree(record.value()).path("eventId");
            if (id.isTextual()) {
                return UUID.fromString(id.asText());
            }
        } catch (RuntimeException notAnEnvelope) {
            // fall back to the header below
        }
        Header header = record.headers().lastHeader(Topics.HEADER_EVENT_ID);
        try {
            return header == null ? null : UUID.fromString(new String(header.value(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String type(ConsumerRecord<String, String> record) {
        try {
            JsonNode type = EventJson.readTree(record.value()).path("type");
            if (type.isTextual()) {
                return type.asText();
            }
        } catch (RuntimeException notAnEnvelope) {
            // fall back to the header below
        }
        Header header = record.headers().lastHeader(Topics.HEADER_EVENT_TYPE);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
