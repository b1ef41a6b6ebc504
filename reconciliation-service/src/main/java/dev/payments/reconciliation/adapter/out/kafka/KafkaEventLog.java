package dev.payments.reconciliation.adapter.out.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.replay.EventLog;
import dev.payments.reconciliation.domain.shared.OrderId;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Reads records back with a group-less consumer (assign and seek, never commit), so looking changes nothing. An
 * order's records are on one partition: the relay keys every event by order id and Kafka's default partitioner
 * places a key at {@code murmur2(key) % partitions}; only that partition is read.
 */
public class KafkaEventLog implements EventLog {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> consumerConfig;

    /** @param consumerConfig connection settings; group, commit and deserializer settings are replaced */
    public KafkaEventLog(Map<String, Object> consumerConfig) {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        this.consumerConfig = Map.copyOf(config);
    }

    @Override
    public List<LoggedEvent> eventsOfOrder(String topic, OrderId orderId, Instant since) {
        String key = orderId.toString();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(topic);
            if (partitions == null || partitions.isEmpty()) {
                return List.of();
            }
            int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions.size();
            TopicPartition tp = new TopicPartition(topic, partition);
            return read(consumer, List.of(tp), since).stream()
                    .filter(r -> key.equals(r.key()))
                    .map(r -> new LoggedEvent(topic, r.partition(), r.offset(), Instant.ofEpochMilli(r.timestamp()),
                            eventId(r), type(r)))
                    .toList();
        }
    }

    @Override
    public Set<UUID> deadLettered(String topic, String group, OrderId orderId) {
        String deadLetters = Topics.deadLetter(topic, group);
        String key = orderId.toString();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(deadLetters);
            if (partitions == null || partitions.isEmpty()) {
                return Set.of();
            }
            Set<UUID> ids = new HashSet<>();
            for (ConsumerRecord<String, String> r : read(consumer,
                    partitions.stream().map(p -> new TopicPartition(deadLetters, p.partition())).toList(), null)) {
                UUID id = eventId(r);
                if (key.equals(r.key()) && id != null) {
                    ids.add(id);
                }
            }
            return ids;
        }
    }

    /** Every record of the partitions from {@code since} (or the start) up to their end when we looked. */
    private static List<ConsumerRecord<String, String>> read(KafkaConsumer<String, String> consumer,
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
    private static UUID eventId(ConsumerRecord<String, String> record) {
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

    private static String type(ConsumerRecord<String, String> record) {
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
}
