package dev.payments.drills.observe;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What Kafka says about the services' consumers: records behind per consumer group (end offset minus committed
 * offset, summed over partitions), records on their dead-letter topics, and the size of each topic's log.
 * The admin client's API timeout is never below its request timeout: the client refuses to start otherwise.
 */
public final class ConsumerLag implements AutoCloseable {

    private final Admin admin;

    /** @param kafkaClient bootstrap servers and a login that may describe every group (the super user's) */
    public ConsumerLag(Map<String, Object> kafkaClient) {
        Properties p = new Properties();
        p.putAll(kafkaClient);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        admin = Admin.create(p);
    }

    /** @return lag per group, or null when Kafka does not answer */
    public Map<String, Long> read() {
        try {
            Map<String, Long> lag = new TreeMap<>();
            for (String group : groups()) {
                Map<TopicPartition, OffsetAndMetadata> committed = committed(group);
                Map<TopicPartition, Long> ends = ends(committed.keySet());
                long behind = 0;
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
                    if (e.getValue() != null && ends.containsKey(e.getKey())) {
                        behind += Math.max(0, ends.get(e.getKey()).longValue() - e.getValue().offset());
                    }
                }
                lag.put(group, behind);
            }
            return lag;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Each service group's partitions and their end offsets now: a mark {@link #consumedUpTo} compares against later.
     * Under steady load a group's lag is never 0 (records are always on their way), so "caught up" is asked of
     * what had been published by a moment, not of the lag. Every partition of each topic a group has committed on
     * counts, also one it has not committed on yet. Null when Kafka does not answer or shows no group with a topic.
     */
    public Map<String, Map<TopicPartition, Long>> mark() {
        try {
            Map<String, Map<TopicPartition, Long>> mark = new TreeMap<>();
            for (String group : groups()) {
                Set<String> topics = new TreeSet<>();
                committed(group).keySet().forEach(tp -> topics.add(tp.topic()));
                if (topics.isEmpty()) {
                    return null;
                }
                Set<TopicPartition> partitions = new HashSet<>();
                admin.describeTopics(topics).allTopicNames().get(3, TimeUnit.SECONDS).values().forEach(topic ->
                        topic.partitions().forEach(p -> partitions.add(new TopicPartition(topic.name(), p.partition()))));
                mark.put(group, ends(partitions));
            }
            return mark.isEmpty() ? null : mark;
        } catch (Exception e) {
            return null;
        }
    }

    /** Whether every group of {@code mark} has committed past each of its offsets; null when Kafka does not answer. */
    public Boolean consumedUpTo(Map<String, Map<TopicPartition, Long>> mark) {
        try {
            for (Map.Entry<String, Map<TopicPartition, Long>> group : mark.entrySet()) {
                Map<TopicPartition, OffsetAndMetadata> committed = committed(group.getKey());
                for (Map.Entry<TopicPartition, Long> end : group.getValue().entrySet()) {
                    OffsetAndMetadata at = committed.get(end.getKey());
                    if (at == null || at.offset() < end.getValue()) {
                        return false;
                    }
                }
            }
            return true;
        } catch (Exception e) {
            return null;
        }
    }

    /** The services' groups only (relay offsets, drills' own readers are not consumers). */
    private List<String> groups() throws Exception {
        return admin.listConsumerGroups().all().get(3, TimeUnit.SECONDS).stream().map(ConsumerGroupListing::groupId)
                .filter(id -> id.endsWith("-service")).toList();
    }

    private Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(3, TimeUnit.SECONDS);
    }

    private Map<TopicPartition, Long> ends(Set<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get(3, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }

    /** Bytes of each topic's log on every broker's log dirs; null when Kafka does not answer. */
    public Map<String, Long> logBytes() {
        try {
            List<Integer> brokers = admin.describeCluster().nodes().get(3, TimeUnit.SECONDS).stream().map(Node::id)
                    .toList();
            Map<String, Long> bytes = new TreeMap<>();
            for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions()
                    .get(3, TimeUnit.SECONDS).values()) {
                dirs.values().forEach(dir -> dir.replicaInfos().forEach((tp, replica) ->
                        bytes.merge(tp.topic(), replica.size(), Long::sum)));
            }
            return bytes;
        } catch (Exception e) {
            return null;
        }
    }

    /** Offsets {@code group} has committed on {@code topic}, summed over partitions; null when Kafka does not answer. */
    public Long committed(String group, String topic) {
        try {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(3, TimeUnit.SECONDS)
                    .entrySet().stream().filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                    .mapToLong(e -> e.getValue().offset()).sum();
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Records on each dead-letter topic ({@code <topic>.<group>.dlt}, end minus earliest offset); an empty map when
     * there is none, null when Kafka does not answer.
     */
    public Map<String, Long> deadLetters() {
        try {
            List<String> topics = admin.listTopics().names().get(3, TimeUnit.SECONDS).stream()
                    .filter(name -> name.endsWith(".dlt")).sorted().toList();
            Map<String, Long> counts = new TreeMap<>();
            if (topics.isEmpty()) {
                return counts;
            }
            Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(3, TimeUnit.SECONDS).values().forEach(topic ->
                    topic.partitions().forEach(p -> {
                        TopicPartition tp = new TopicPartition(topic.name(), p.partition());
                        earliest.put(tp, OffsetSpec.earliest());
                        latest.put(tp, OffsetSpec.latest());
                    }));
            var starts = admin.listOffsets(earliest).all().get(3, TimeUnit.SECONDS);
            var ends = admin.listOffsets(latest).all().get(3, TimeUnit.SECONDS);
            ends.forEach((tp, end) -> counts.merge(tp.topic(), end.offset() - starts.get(tp).offset(), Long::sum));
            return counts;
        } catch (Exception e) {
            return null;
        }
    }

    /** Records that arrived on each dead-letter topic between two {@link #deadLetters()} readings; null if either is. */
    public static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        if (before == null || after == null) {
            return null;
        }
        Map<String, Long> added = new TreeMap<>();
        after.forEach((topic, count) -> {
            long n = count - before.getOrDefault(topic, 0L);
            if (n > 0) {
                added.put(topic, n);
            }
        });
        return added;
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
