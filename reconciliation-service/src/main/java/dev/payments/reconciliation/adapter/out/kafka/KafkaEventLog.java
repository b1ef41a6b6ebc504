package dev.payments.reconciliation.adapter.out.kafka;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.operations.EventLog;
import dev.payments.reconciliation.domain.shared.OrderId;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
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

    private final Map<String, Object> consumerConfig;

    /** @param consumerConfig connection settings; group, commit and deserializer settings are replaced */
    public KafkaEventLog(Map<String, Object> consumerConfig) {
        this.consumerConfig = TopicRecords.readerConfig(consumerConfig);
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
            return TopicRecords.read(consumer, List.of(tp), since).stream()
                    .filter(r -> key.equals(r.key()))
                    .map(r -> new LoggedEvent(topic, r.partition(), r.offset(), Instant.ofEpochMilli(r.timestamp()),
                            TopicRecords.eventId(r), TopicRecords.type(r)))
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
            for (ConsumerRecord<String, String> r : TopicRecords.read(consumer,
                    partitions.stream().map(p -> new TopicPartition(deadLetters, p.partition())).toList(), null)) {
                UUID id = TopicRecords.eventId(r);
                if (key.equals(r.key()) && id != null) {
                    ids.add(id);
                }
            }
            return ids;
        }
    }
}
