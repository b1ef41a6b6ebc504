package dev.payments.reconciliation.adapter.out.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.DeadLetters;
import dev.payments.reconciliation.application.operations.DeadLetterLog;
import dev.payments.reconciliation.application.operations.EventLog;
import dev.payments.reconciliation.application.operations.RecordRef;
import dev.payments.reconciliation.application.operations.RedriveChannel;
import dev.payments.reconciliation.domain.shared.OrderId;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.support.KafkaHeaders;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The topics as an operator tool. Records are read back with a group-less consumer (assign and seek, never commit), so
 * looking changes nothing; what a dead letter says comes from the consumer's error handler: Spring Kafka's
 * {@code kafka_dlt-*} headers (the exception, where the record was read) and the outbox library's
 * ({@link DeadLetters#HEADER_FIRST_FAILURE}, {@link DeadLetters#HEADER_FAILURE_KIND}). A re-drive copies one record to
 * the group's re-drive topic with the service's own KafkaTemplate (spring.kafka.*), waited for like the relay waits
 * for its batches.
 */
public class KafkaTopics implements EventLog, DeadLetterLog, RedriveChannel {

    /** Header on a re-driven record: the operator who re-drove it, for the consumer's logs. */
    public static final String HEADER_REDRIVEN_BY = "redriven_by";
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Object> readerConfig;
    private final KafkaOperations<String, String> template;
    private final KafkaAdmin admin;

    /** @param consumerConfig the service's consumer settings (so security too); group, commit, deserializers replaced */
    public KafkaTopics(Map<String, Object> consumerConfig, KafkaOperations<String, String> template, KafkaAdmin admin) {
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
        this.readerConfig = Map.copyOf(config);
        this.template = template;
        this.admin = admin;
    }

    /**
     * Only the order's partition is read: the relay keys every event by order id and Kafka's default partitioner places
     * a key at {@code murmur2(key) % partitions}.
     */
    @Override
    public List<LoggedEvent> eventsOfOrder(String topic, OrderId orderId, Instant since) {
        String key = orderId.toString();
        return read(topic, since, all -> List.of(all.get(
                        Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % all.size()))).stream()
                .filter(r -> key.equals(r.key()))
                .map(r -> new LoggedEvent(topic, r.partition(), r.offset(), Instant.ofEpochMilli(r.timestamp()),
                        eventId(r), type(r)))
                .toList();
    }

    @Override
    public Set<UUID> deadLettered(String topic, String group, OrderId orderId) {
        return read(Topics.deadLetter(topic, group), null, Function.identity()).stream()
                .filter(r -> orderId.toString().equals(r.key()) && eventId(r) != null)
                .map(KafkaTopics::eventId).collect(Collectors.toSet());
    }

    @Override
    public List<Parked> parked(String sourceTopic, String group) {
        return read(Topics.deadLetter(sourceTopic, group), null, Function.identity()).stream()
                .map(record -> parked(record, sourceTopic))
                .sorted(Comparator.comparing(Parked::parkedAt).thenComparing(p -> p.letter().offset()))
                .toList();
    }

    /**
     * Key and value as they were, the headers the consumer reads (event id, type, trace, CloudEvents), without what the
     * error handler added (the consumer would copy them again onto a new dead letter), plus who re-drove it.
     */
    @Override
    public void copy(RecordRef from, String sourceTopic, String group, String operator) {
        ConsumerRecord<String, String> record = record(from);
        String target = Topics.redrive(sourceTopic, group);
        // Consumers create it at start-up; a group that never ran since it was declared may not have.
        admin.createOrModifyTopics(TopicBuilder.name(target).partitions(1).build());
        RecordHeaders headers = new RecordHeaders();
        for (Header header : record.headers()) {
            if (!header.key().startsWith("kafka_dlt-") && !header.key().startsWith("inbox_")
                    && !header.key().equals(HEADER_REDRIVEN_BY)) {
                headers.add(header);
            }
        }
        headers.add(HEADER_REDRIVEN_BY, operator.getBytes(StandardCharsets.UTF_8));
        try {
            template.send(new ProducerRecord<>(target, null, record.key(), record.value(), headers))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted re-driving " + from + " to " + target, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not take " + from + " on " + target, e);
        }
    }

    /**
     * Every record of the topic's chosen partitions from {@code since} (or the start) up to their end when we looked;
     * none if the topic does not exist.
     */
    private List<ConsumerRecord<String, String>> read(String topic, Instant since,
                                                      Function<List<TopicPartition>, List<TopicPartition>> choose) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(readerConfig)) {
            List<PartitionInfo> found = consumer.partitionsFor(topic);
            if (found == null || found.isEmpty()) {
                return List.of();
            }
            List<TopicPartition> partitions = choose.apply(
                    found.stream().map(p -> new TopicPartition(topic, p.partition())).sorted(
                            Comparator.comparingInt(TopicPartition::partition)).toList());
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            if (since == null) {
                consumer.seekToBeginning(partitions);
            } else {
                Map<TopicPartition, OffsetAndTimestamp> at = consumer.offsetsForTimes(
                        partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> since.toEpochMilli())));
                partitions.forEach(tp -> consumer.seek(tp, at.get(tp) == null ? ends.get(tp) : at.get(tp).offset()));
            }
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + partitions + " did not finish within " + TIMEOUT);
                }
                consumer.poll(POLL).forEach(records::add);
            }
            return records;
        }
    }

    private ConsumerRecord<String, String> record(RecordRef ref) {
        TopicPartition partition = new TopicPartition(ref.topic(), ref.partition());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(readerConfig)) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, ref.offset());
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (System.nanoTime() < deadline && consumer.position(partition) <= ref.offset()) {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL).records(partition)) {
                    if (record.offset() == ref.offset()) {
                        return record;
                    }
                }
            }
        }
        throw new IllegalStateException("No record at " + ref + " (past the topic's retention?)");
    }

    private static Parked parked(ConsumerRecord<String, String> record, String sourceTopic) {
        Instant parkedAt = Instant.ofEpochMilli(record.timestamp());
        String firstFailure = header(record, DeadLetters.HEADER_FIRST_FAILURE);
        String originalTopic = header(record, KafkaHeaders.DLT_ORIGINAL_TOPIC);
        RecordRef original = new RecordRef(originalTopic != null ? originalTopic : sourceTopic,
                (int) number(record, KafkaHeaders.DLT_ORIGINAL_PARTITION),
                number(record, KafkaHeaders.DLT_ORIGINAL_OFFSET));
        return new Parked(new RecordRef(record.topic(), record.partition(), record.offset()), original,
                eventId(record), record.key(), type(record), header(record, DeadLetters.HEADER_FAILURE_KIND),
                header(record, KafkaHeaders.DLT_EXCEPTION_FQCN), header(record, KafkaHeaders.DLT_EXCEPTION_MESSAGE),
                header(record, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN),
                firstFailure != null ? Instant.ofEpochMilli(Long.parseLong(firstFailure)) : parkedAt, parkedAt);
    }

    /** Spring Kafka writes the original partition as 4 bytes and the offset as 8 (big-endian); -1 if absent. */
    private static long number(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null) {
            return -1;
        }
        ByteBuffer value = ByteBuffer.wrap(header.value());
        return header.value().length == Long.BYTES ? value.getLong() : value.getInt();
    }

    /** The envelope's id; the relay's {@code id} header when the value is not an envelope (null if neither). */
    private static UUID eventId(ConsumerRecord<String, String> record) {
        String id = envelopeField(record, "eventId", Topics.HEADER_EVENT_ID);
        try {
            return id == null ? null : UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String type(ConsumerRecord<String, String> record) {
        return envelopeField(record, "type", Topics.HEADER_EVENT_TYPE);
    }

    private static String envelopeField(ConsumerRecord<String, String> record, String field, String fallbackHeader) {
        try {
            JsonNode value = EventJson.readTree(record.value()).path(field);
            if (value.isTextual()) {
                return value.asText();
            }
        } catch (RuntimeException notAnEnvelope) {
            // fall back to the header
        }
        return header(record, fallbackHeader);
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
