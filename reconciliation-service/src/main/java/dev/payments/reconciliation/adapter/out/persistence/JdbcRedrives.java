package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.reconciliation.application.operations.RecordRef;
import dev.payments.reconciliation.application.operations.Redrives;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;

/** Re-drives and replays, in this service's own database. */
@Repository
class JdbcRedrives implements Redrives {

    private final JdbcClient jdbc;

    JdbcRedrives(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean mark(RecordRef letter, String group, UUID eventId, String orderId, String operator, Instant at) {
        return jdbc.sql("""
                        INSERT INTO dead_letter_redrive (letter_topic, letter_partition, letter_offset, consumer_group,
                            event_id, order_id, redriven_by, redriven_at)
                        VALUES (:topic, :partition, :offset, :group, :eventId, :orderId, :by, :at)
                        ON CONFLICT DO NOTHING""")
                .param("topic", letter.topic())
                .param("partition", letter.partition())
                .param("offset", letter.offset())
                .param("group", group)
                .param("eventId", eventId)
                .param("orderId", orderId)
                .param("by", operator)
                .param("at", timestamp(at))
                .update() == 1;
    }

    @Override
    public Map<RecordRef, Redrive> ofGroup(String group) {
        Map<RecordRef, Redrive> marks = new HashMap<>();
        jdbc.sql("""
                        SELECT letter_topic, letter_partition, letter_offset, redriven_by, redriven_at
                        FROM dead_letter_redrive WHERE consumer_group = :group""")
                .param("group", group)
                .query((row, n) -> marks.put(
                        new RecordRef(row.getString("letter_topic"), row.getInt("letter_partition"),
                                row.getLong("letter_offset")),
                        new Redrive(row.getString("redriven_by"), instant(row, "redriven_at"))))
                .list();
        return marks;
    }

    @Override
    public void replayed(RecordRef event, String group, UUID eventId, String orderId, String operator, Instant at) {
        jdbc.sql("""
                        INSERT INTO event_replay (source_topic, source_partition, source_offset, consumer_group,
                            event_id, order_id, replayed_by, replayed_at)
                        VALUES (:topic, :partition, :offset, :group, :eventId, :orderId, :by, :at)""")
                .param("topic", event.topic())
                .param("partition", event.partition())
                .param("offset", event.offset())
                .param("group", group)
                .param("eventId", eventId)
                .param("orderId", orderId)
                .param("by", operator)
                .param("at", timestamp(at))
                .update();
    }
}
