package dev.payments.reconciliation.adapter.out.kafka;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.operations.RecordRef;
import dev.payments.reconciliation.application.operations.RedriveChannel;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaOperations;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Copies one record to a consumer group's re-drive topic: key and value as they were, the headers the consumer reads
 * (event id, type, trace, CloudEvents), without what the error handler added (the consumer would copy them again
 * onto a new dead letter), plus who re-drove it. Sent with the service's own KafkaTemplate (spring.kafka.*), waited
 * for like the relay waits for its batches.
 */
public class KafkaRedriveChannel implements RedriveChannel {

    /** Header on a re-driven record: the operator who re-drove it, for the consumer's logs. */
    public static final String HEADER_REDRIVEN_BY = "redriven_by";
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    private final Map<String, Object> consumerConfig;
    private final KafkaOperations<String, String> template;
    private final KafkaAdmin admin;

    public KafkaRedriveChannel(Map<String, Object> consumerConfig, KafkaOperations<String, String> template,
                               KafkaAdmin admin) {
        this.consumerConfig = TopicRecords.readerConfig(consumerConfig);
        this.template = template;
        this.admin = admin;
    }

    @Override
    public void copy(RecordRef from, String sourceTopic, String group, String operator) {
        ConsumerRecord<String, String> record = read(from);
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
                    .get(SEND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted re-driving " + from + " to " + target, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka did not take " + from + " on " + target, e);
        }
    }

    private ConsumerRecord<String, String> read(RecordRef ref) {
        TopicPartition partition = new TopicPartition(ref.topic(), ref.partition());
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig)) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, ref.offset());
            long deadline = System.nanoTime() + SEND_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(POLL).records(partition)) {
                    if (record.offset() == ref.offset()) {
                        return record;
                    }
                    if (record.offset() > ref.offset()) {
                        break;
                    }
                }
                if (consumer.position(partition) > ref.offset()) {
                    break;
                }
            }
        }
        throw new IllegalStateException("No record at " + ref + " (past the topic's retention?)");
    }
}
