package dev.payments.outbox.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Removes outbox rows that are published and past their retention, on the active relay. A row the published
 * watermark does not cover is never deleted, however old: it may be exactly the one a relay still has to send.
 * Deletes are not in the publication, so the relay never streams them.
 */
public final class OutboxCleanup {

    private static final Logger log = LoggerFactory.getLogger(OutboxCleanup.class);
    private static final int BATCH = 10_000;
    private static final String DELETE = """
            DELETE FROM outbox WHERE id IN (
                SELECT id FROM outbox
                WHERE created_at < ?
                  AND pg_visible_in_snapshot(tx_id, (SELECT published_through FROM outbox_relay WHERE slot_name = ?))
                LIMIT %d)""".formatted(BATCH);

    private final PostgresTarget target;
    private final String slotName;
    private final Duration interval;
    private final Duration retention;
    private final Clock clock;
    private Instant nextRun;

    OutboxCleanup(PostgresTarget target, String slotName, Duration interval, Duration retention, Clock clock) {
        this.target = target;
        this.slotName = slotName;
        this.interval = interval;
        this.retention = retention;
        this.clock = clock;
    }

    /** Runs at once the first time, then once per interval. */
    void reset() {
        nextRun = clock.instant();
    }

    void runIfDue() {
        Instant now = clock.instant();
        if (nextRun != null && now.isBefore(nextRun)) {
            return;
        }
        nextRun = now.plus(interval);
        try {
            int deleted = deletePublishedBefore(now.minus(retention));
            if (deleted > 0) {
                log.info("Outbox cleanup removed {} published rows older than {}", deleted, retention);
            }
        } catch (SQLException e) {
            log.warn("Outbox cleanup failed; it runs again in {}", interval, e);
        }
    }

    /** Deletes published rows written before {@code cutoff}, in batches; returns how many. */
    public int deletePublishedBefore(Instant cutoff) throws SQLException {
        int total = 0;
        try (Connection connection = target.connect();
             PreparedStatement delete = connection.prepareStatement(DELETE)) {
            delete.setTimestamp(1, Timestamp.from(cutoff));
            delete.setString(2, slotName);
            int deleted;
            do {
                deleted = delete.executeUpdate();
                total += deleted;
            } while (deleted == BATCH);
        }
        return total;
    }
}
