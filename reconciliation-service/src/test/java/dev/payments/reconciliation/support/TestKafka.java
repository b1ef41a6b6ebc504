package dev.payments.reconciliation.support;

import dev.payments.contracts.Topics;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/** Kafka set-up for integration tests that share one broker. */
public final class TestKafka {

    /** As the outbox library declares them. */
    public static final int PARTITIONS = 4;

    private TestKafka() {
    }

    public static Admin admin() {
        return Admin.create(SharedTestInfrastructure.kafkaClientProperties());
    }

    /**
     * Starts a new consumer group at the current end of both event topics, so a test context sees only the events
     * its own class sends, not those other classes sent earlier into the shared broker.
     */
    /** A topic created a moment ago may not be in the broker's metadata yet: ask again for a few seconds. */
    private static Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> endOffsets(
            Admin admin, Map<TopicPartition, OffsetSpec> latest) throws InterruptedException, ExecutionException {
        for (int attempt = 1; ; attempt++) {
            try {
                return admin.listOffsets(latest).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || attempt == 40) {
                    throw e;
                }
                Thread.sleep(250);
            }
        }
    }

    public static void startGroupAtEnd(String group) {
        try (Admin admin = admin()) {
            for (String topic : List.of(Topics.ORDER_EVENTS, Topics.PAYMENT_EVENTS)) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
                }
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = endOffsets(admin, latest);
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                ends.forEach((tp, info) -> offsets.put(tp, new OffsetAndMetadata(info.offset())));
                admin.alterConsumerGroupOffsets(group, offsets).all().get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not start group " + group + " at the end", e.getCause());
        }
    }
}
