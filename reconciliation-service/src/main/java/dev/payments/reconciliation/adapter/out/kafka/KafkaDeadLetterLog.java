package dev.payments.reconciliation.adapter.out.kafka;

import dev.payments.contracts.Topics;
import dev.payments.outbox.inbox.DeadLetters;
import dev.payments.reconciliation.application.operations.DeadLetterLog;
import dev.payments.reconciliation.application.operations.RecordRef;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.springframework.kafka.support.KafkaHeaders;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Reads a group's dead-letter topic with a group-less consumer. What each record says comes from the consumer's error
 * handler: Spring Kafka's {@code kafka_dlt-*} headers (the exception, where the record was read) and the outbox
 * library's ({@link DeadLetters#HEADER_FIRST_FAILURE}, {@link DeadLetters#HEADER_FAILURE_KIND}).
 */
public class KafkaDeadLetterLog implements DeadLetterLog {

    private final Map<String, Object> consumerConfig;

    /** @param consumerConfig the service's consumer settings; group, commit and deserializers are replaced */
    public KafkaDeadLetterLog(Map<String, Object> consumerConfig) {
        this.consumerConfig = TopicRecords.readerConfig(consumerConfig);
    }

    @Override
    public List<Parked> parked(String sourceTopic, String group) {
        String deadLetters = Topics.deadLetter(sourceTopic, group);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            List<PartitionInfo> partitions = consumer.partitionsFor(deadLetters);
            if (partitions == null || partitions.isEmpty()) {
                return List.of();
            }
            return TopicRecords.read(consumer,
                            partitions.stream().map(p -> new TopicPartition(deadLetters, p.partition())).toList(), null)
                    .stream()
                    .map(record -> parked(record, sourceTopic))
                    .sorted(Comparator.comparing(Parked::parkedAt).thenComparing(p -> p.letter().offset()))
                    .toList();
        }
    }

    private static Parked parked(ConsumerRecord<String, String> record, String sourceTopic) {
        Instant parkedAt = Instant.ofEpochMilli(record.timestamp());
        String firstFailure = TopicRecords.header(record, DeadLetters.HEADER_FIRST_FAILURE);
        String originalTopic = TopicRecords.header(record, KafkaHeaders.DLT_ORIGINAL_TOPIC);
        RecordRef original = new RecordRef(originalTopic != null ? originalTopic : sourceTopic,
                (int) number(record, KafkaHeaders.DLT_ORIGINAL_PARTITION),
                number(record, KafkaHeaders.DLT_ORIGINAL_OFFSET));
        return new Parked(new RecordRef(record.topic(), record.partition(), record.offset()), original,
                TopicRecords.eventId(record), record.key(), TopicRecords.type(record),
                TopicRecords.header(record, DeadLetters.HEADER_FAILURE_KIND),
                TopicRecords.header(record, KafkaHeaders.DLT_EXCEPTION_FQCN),
                TopicRecords.header(record, KafkaHeaders.DLT_EXCEPTION_MESSAGE),
                TopicRecords.header(record, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN),
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
}
