package dev.payments.outbox.relay;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/** The outbox lag whatever relay runs: rows the published watermark does not cover, and the oldest one's age. */
final class UnpublishedRows {

    private static final String QUERY = """
            SELECT count(*), min(created_at) FROM outbox
            WHERE tx_id >= pg_snapshot_xmin(CAST(? AS pg_snapshot))
              AND NOT pg_visible_in_snapshot(tx_id, CAST(? AS pg_snapshot))""";

    private UnpublishedRows() {
    }

    static RelayMetrics.Backlog measure(Connection connection, String publishedThrough, Instant now) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(QUERY)) {
            query.setString(1, publishedThrough);
            query.setString(2, publishedThrough);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                Timestamp oldest = rs.getTimestamp(2);
                return new RelayMetrics.Backlog(rs.getLong(1), oldest == null ? null : oldest.toInstant(), now);
            }
        }
    }
}
