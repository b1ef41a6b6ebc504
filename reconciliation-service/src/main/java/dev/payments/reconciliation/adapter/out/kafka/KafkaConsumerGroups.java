package dev.payments.reconciliation.adapter.out.kafka;

import dev.payments.reconciliation.application.operations.ConsumerGroupActiveException;
import dev.payments.reconciliation.application.operations.ConsumerGroups;
import dev.payments.reconciliation.application.operations.OffsetReset;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Replay by moving a group's committed offsets with the AdminClient ({@code offsetsForTimes} via
 * {@code listOffsets(forTimestamp)}, then {@code alterConsumerGroupOffsets}) — what
 * {@code kafka-consumer-groups.sh --reset-offsets --to-datetime} does. It works for any service's group from outside
 * that service, and Kafka refuses it while the group has members, so no consumer is mid-batch while its offsets jump:
 * another service is stopped first (the runbook says how). This service's own group is paused here instead: its
 * listener containers are stopped, the group empties, the offsets move, the containers start again.
 */
public class KafkaConsumerGroups implements ConsumerGroups {

    private static final Logger log = LoggerFactory.getLogger(KafkaConsumerGroups.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

    private final Map<String, Object> adminConfig;
    private final String ownGroup;
    private final KafkaListenerEndpointRegistry ownListeners;
    private final Duration emptyTimeout;

    public KafkaConsumerGroups(Map<String, Object> adminConfig, String ownGroup,
                               KafkaListenerEndpointRegistry ownListeners, Duration emptyTimeout) {
        this.adminConfig = Map.copyOf(adminConfig);
        this.ownGroup = ownGroup;
        this.ownListeners = ownListeners;
        this.emptyTimeout = emptyTimeout;
    }

    @Override
    public OffsetReset plan(String group, String topic, Instant from) {
        try (Admin admin = Admin.create(adminConfig)) {
            List<TopicPartition> partitions = partitions(admin, topic);
            Map<TopicPartition, Long> committed = committed(admin, group, topic);
            Map<TopicPartition, Long> starts = offsets(admin, partitions, OffsetSpec.earliest());
            Map<TopicPartition, Long> ends = offsets(admin, partitions, OffsetSpec.latest());
            Map<TopicPartition, Long> atTime = offsets(admin, partitions, OffsetSpec.forTimestamp(from.toEpochMilli()));
            List<OffsetReset.Partition> report = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                long end = ends.get(tp);
                long target = atTime.getOrDefault(tp, -1L) < 0 ? end : atTime.get(tp);
                report.add(new OffsetReset.Partition(tp.partition(), committed.get(tp), starts.get(tp), target, end));
            }
            report.sort(Comparator.comparingInt(OffsetReset.Partition::partition));
            return new OffsetReset(group, topic, from, false, report);
        }
    }

    @Override
    public OffsetReset apply(OffsetReset plan) {
        String group = plan.group();
        Map<TopicPartition, OffsetAndMetadata> targets = new HashMap<>();
        plan.partitions().forEach(p -> targets.put(new TopicPartition(plan.topic(), p.partition()),
                new OffsetAndMetadata(p.target())));
        try (Admin admin = Admin.create(adminConfig)) {
            boolean own = group.equals(ownGroup);
            if (!own) {
                ConsumerGroupDescription description = describe(admin, group);
                if (!description.members().isEmpty()) {
                    throw new ConsumerGroupActiveException(group, description.members().size(),
                            String.valueOf(description.groupState()));
                }
            }
            Collection<MessageListenerContainer> paused = own ? pauseOwnListeners(admin) : List.of();
            try {
                await(admin.alterConsumerGroupOffsets(group, targets).all());
            } finally {
                paused.forEach(MessageListenerContainer::start);
            }
            log.warn("Replay: consumer group {} on {} moved to {} ({} records to re-consume): {}", group,
                    plan.topic(), plan.from(), plan.toReplay(), plan.partitions());
            return plan.asApplied();
        }
    }

    @Override
    public Map<Integer, Long> committed(String group, String topic) {
        try (Admin admin = Admin.create(adminConfig)) {
            return committed(admin, group, topic).entrySet().stream()
                    .collect(Collectors.toMap(e -> e.getKey().partition(), Map.Entry::getValue));
        }
    }

    /** Stops this service's listeners and waits until Kafka sees the group without members. */
    private Collection<MessageListenerContainer> pauseOwnListeners(Admin admin) {
        List<MessageListenerContainer> running = ownListeners.getListenerContainers().stream()
                .filter(MessageListenerContainer::isRunning).toList();
        running.forEach(MessageListenerContainer::stop);
        long deadline = System.nanoTime() + emptyTimeout.toNanos();
        while (!describe(admin, ownGroup).members().isEmpty()) {
            if (System.nanoTime() > deadline) {
                running.forEach(MessageListenerContainer::start);
                throw new ConsumerGroupActiveException(ownGroup, describe(admin, ownGroup).members().size(),
                        "still not empty " + emptyTimeout + " after stopping this service's listeners");
            }
            sleep();
        }
        return running;
    }

    private static List<TopicPartition> partitions(Admin admin, String topic) {
        TopicDescription description = await(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic);
        return description.partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    private static Map<TopicPartition, Long> committed(Admin admin, String group, String topic) {
        Map<TopicPartition, OffsetAndMetadata> all =
                await(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<TopicPartition, Long> result = new HashMap<>();
        all.forEach((tp, offset) -> {
            if (tp.topic().equals(topic) && offset != null) {
                result.put(tp, offset.offset());
            }
        });
        return result;
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, List<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> infos = await(admin.listOffsets(
                partitions.stream().collect(Collectors.toMap(Function.identity(), tp -> spec))).all());
        Map<TopicPartition, Long> result = new HashMap<>();
        infos.forEach((tp, info) -> result.put(tp, info.offset()));
        return result;
    }

    private static ConsumerGroupDescription describe(Admin admin, String group) {
        return await(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
    }

    private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while talking to Kafka", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException unknown) {
                throw unknown;
            }
            throw new IllegalStateException("Kafka refused: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + CALL_TIMEOUT, e);
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
