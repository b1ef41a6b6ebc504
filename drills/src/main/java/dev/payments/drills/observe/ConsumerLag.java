package dev.payments.drills.observe;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** Records behind per consumer group (end offset minus committed offset, summed over partitions). */
public final class ConsumerLag implements AutoCloseable {

    private final Admin admin;

    public ConsumerLag(String bootstrapServers) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000);
        admin = Admin.create(p);
    }

    /** @return lag per group, or null when Kafka does not answer */
    public Map<String, Long> read() {
        try {
            Map<String, Long> lag = new TreeMap<>();
            for (ConsumerGroupListing group : admin.listConsumerGroups().all().get(3, TimeUnit.SECONDS)) {
                if (!group.groupId().endsWith("-service")) {
                    continue;   // the services' groups only (relay offsets, drills' own readers are not consumers)
                }
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group.groupId())
                        .partitionsToOffsetAndMetadata().get(3, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                committed.keySet().forEach(tp -> latest.put(tp, OffsetSpec.latest()));
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends =
                        admin.listOffsets(latest).all().get(3, TimeUnit.SECONDS);
                long behind = 0;
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
                    if (e.getValue() != null && ends.containsKey(e.getKey())) {
                        behind += Math.max(0, ends.get(e.getKey()).offset() - e.getValue().offset());
                    }
                }
                lag.put(group.groupId(), behind);
            }
            return lag;
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

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(2));
    }
}
