package dev.payments.outbox.relay;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates the engine's offset topic before the engine does: Kafka Connect's offset store creates it with the
 * replication factor only, and an offset acknowledged by a single in-sync replica is lost with that broker.
 */
final class OffsetTopic {

    private OffsetTopic() {
    }

    static void ensureExists(KafkaConnection kafka, String topic, short replicationFactor, short minInsyncReplicas) {
        try (Admin admin = Admin.create(kafka.with(Map.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000)))) {
            NewTopic offsets = new NewTopic(topic, 1, replicationFactor).configs(Map.of(
                    TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                    TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(minInsyncReplicas)));
            admin.createTopics(List.of(offsets)).all().get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("Could not create the offset topic " + topic, e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer creating the offset topic " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted creating the offset topic " + topic, e);
        }
    }
}
