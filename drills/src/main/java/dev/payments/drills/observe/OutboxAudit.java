package dev.payments.drills.observe;

import dev.payments.drills.stack.Target;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The outbox checked as an operator would after a relay failure: every row of a service's outbox table against what
 * its topic holds (by event id); {@link Notices} checks each event applied once where a customer would see it.
 */
public final class OutboxAudit {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private OutboxAudit() {
    }

    /**
     * @param rows       outbox rows of the service
     * @param missing    rows whose event id is not on the topic
     * @param copies     records on the topic for those rows (a row sent twice counts twice)
     */
    public record Coverage(int rows, int missing, long copies) {
        public long duplicates() {
            return copies - (rows - missing);
        }
    }

    /**
     * Waits (up to {@code patience}) until every outbox row of the database is on {@code topic}, then says how far it
     * got. The table keeps published rows for 72 h, so on a drill's fresh stack it holds every event ever written.
     */
    public static Coverage outboxAgainstTopic(Target target, String database, String topic, Duration patience)
            throws SQLException {
        Set<String> rows = outboxIds(target, database);
        long until = System.nanoTime() + patience.toNanos();
        Map<String, Integer> onTopic;
        do {
            onTopic = eventIdsOn(target.kafkaClient(), topic);
            if (onTopic.keySet().containsAll(rows)) {
                break;
            }
            LockSupport.parkNanos(Duration.ofSeconds(2).toNanos());
        } while (System.nanoTime() < until);
        int missing = 0;
        long copies = 0;
        for (String id : rows) {
            Integer n = onTopic.get(id);
            if (n == null) {
                missing++;
            } else {
                copies += n;
            }
        }
        return new Coverage(rows.size(), missing, copies);
    }

    private static Set<String> outboxIds(Target target, String database) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection connection = target.connect(database);
             Statement query = connection.createStatement();
             ResultSet rs = query.executeQuery("SELECT id::text FROM outbox")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** Every event id (header {@code id}) on the topic now, with how many records carry it. */
    static Map<String, Integer> eventIdsOn(Map<String, Object> kafkaClient, String topic) {
        Map<String, Integer> ids = new HashMap<>();
        Map<String, Object> settings = new HashMap<>(kafkaClient);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(PartitionInfo::partition).map(p -> new TopicPartition(topic, p)).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long until = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < until) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    Header id = record.headers().lastHeader("id");
                    if (id != null) {
                        ids.merge(new String(id.value(), StandardCharsets.UTF_8), 1, Integer::sum);
                    }
                }
            }
        }
        return ids;
    }
}
