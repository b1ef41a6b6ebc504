package dev.payments.outbox.relay;

import dev.payments.outbox.config.OutboxProperties;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Publishes the outbox table by polling it, for when the replication slot is lost (or by configuration). It works in
 * windows between two snapshots: every row whose transaction the target snapshot sees and the last published one does
 * not, in {@code seq} order, then the target becomes the published watermark. A transaction still running at the
 * target is not lost, it is in the next window; two events of one order stay in commit order, because the second is
 * written only after the first's transaction committed (the writer holds the aggregate's lock), so it can never be
 * in an earlier window nor earlier in the same one.
 *
 * <p>No row is locked or marked: there is one publisher at a time (the lease), and the watermark is the only write,
 * one per window. A crash in the middle of a window sends that window again; consumers' inboxes absorb it.
 */
final class PollingRelay {

    private static final String WINDOW = """
            SELECT seq, id, aggregatetype, kafka_key, type, payload::text, traceparent, created_at
            FROM outbox
            WHERE tx_id >= pg_snapshot_xmin(CAST(? AS pg_snapshot))
              AND NOT pg_visible_in_snapshot(tx_id, CAST(? AS pg_snapshot))
              AND pg_visible_in_snapshot(tx_id, CAST(? AS pg_snapshot))
              AND seq > ?
            ORDER BY seq
            LIMIT ?""";

    private final OutboxProperties.Polling settings;
    private final RelayMetrics metrics;
    private final Clock clock;
    private final PublishTracing tracing;

    PollingRelay(OutboxProperties.Polling settings, RelayMetrics metrics, Clock clock, PublishTracing tracing) {
        this.tracing = tracing;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
    }

    Duration interval() {
        return settings.interval();
    }

    /** The snapshot a new window ends at: what is committed now. */
    static String snapshotNow(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT pg_current_snapshot()::text");
             ResultSet rs = query.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * Publishes every row {@code target} sees that the session's watermark does not, then records {@code target} as
     * published if anything was published or {@code record} asks for it (a hand-over must leave the watermark exactly
     * at the snapshot the next relay starts from). Returns how many rows it published.
     */
    int publishThrough(RelaySession session, String target, boolean record) throws SQLException, InterruptedException {
        String from = session.publishedThrough();
        long afterSeq = Long.MIN_VALUE;
        int total = 0;
        while (true) {
            List<OutboxRecords.Row> rows = window(session.work(), from, target, afterSeq);
            if (!rows.isEmpty()) {
                send(session, rows);
                total += rows.size();
                afterSeq = rows.get(rows.size() - 1).seq();
            }
            if (rows.size() < settings.batchSize()) {
                break;
            }
        }
        if (total > 0 || record) {
            session.publishedThrough(target);
        }
        return total;
    }

    private List<OutboxRecords.Row> window(Connection connection, String from, String target, long afterSeq)
            throws SQLException {
        List<OutboxRecords.Row> rows = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement(WINDOW)) {
            query.setString(1, from);
            query.setString(2, from);
            query.setString(3, target);
            query.setLong(4, afterSeq);
            query.setInt(5, settings.batchSize());
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    rows.add(new OutboxRecords.Row(rs.getLong(1), rs.getObject(2, UUID.class), rs.getString(3),
                            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                            rs.getTimestamp(8).toInstant()));
                }
            }
        }
        return rows;
    }

    private void send(RelaySession session, List<OutboxRecords.Row> rows) throws InterruptedException {
        session.requireLease();
        Producer<String, String> producer = session.producer();
        List<Future<RecordMetadata>> acks = new ArrayList<>(rows.size());
        for (OutboxRecords.Row row : rows) {
            acks.add(tracing.send(producer, OutboxRecords.toRecord(row)));
        }
        for (int i = 0; i < acks.size(); i++) {
            try {
                acks.get(i).get();
            } catch (ExecutionException e) {
                // The watermark stays where it was: the whole window is sent again, never skipped.
                throw new OutboxPublishException("Kafka did not acknowledge an outbox event", e.getCause());
            }
            metrics.lag(Duration.between(rows.get(i).createdAt(), clock.instant()));
        }
        metrics.published(RelayMetrics.Publisher.POLLING, rows.size());
    }
}
