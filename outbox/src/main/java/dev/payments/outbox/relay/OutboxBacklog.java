package dev.payments.outbox.relay;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;

/**
 * The relay lag as any replica can read it from the database: outbox rows the relay's published watermark
 * ({@code outbox_relay.published_through}) does not cover yet, and when the oldest was written. The active relay's
 * gauges ({@code outbox_unpublished_rows}) say the same on the one replica that runs it; an operator's question may
 * reach any replica.
 */
public final class OutboxBacklog {

    /** @param oldest when the oldest unpublished row was written; null when every row is published */
    public record Backlog(long rows, Instant oldest) {
    }

    /** What a relay that never recorded progress has published: nothing (the column's default, V0_1_1). */
    private static final String NOTHING_PUBLISHED = "1:1:";

    private final DataSource dataSource;
    private final String slotName;
    private final Clock clock;

    public OutboxBacklog(DataSource dataSource, String slotName, Clock clock) {
        this.dataSource = dataSource;
        this.slotName = slotName;
        this.clock = clock;
    }

    public Backlog measure() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            String publishedThrough = NOTHING_PUBLISHED;
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT CAST(published_through AS text) FROM outbox_relay WHERE slot_name = ?")) {
                query.setString(1, slotName);
                try (ResultSet rs = query.executeQuery()) {
                    if (rs.next()) {
                        publishedThrough = rs.getString(1);
                    }
                }
            }
            RelayMetrics.Backlog backlog = UnpublishedRows.measure(connection, publishedThrough, clock.instant());
            return new Backlog(backlog.rows(), backlog.oldest());
        }
    }
}
