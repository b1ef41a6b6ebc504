package dev.payments.outbox.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Creates the service's logical replication slot before the service takes any traffic. The slot marks where
 * streaming starts: an event committed before it existed would never reach Kafka, so it must not wait for the relay
 * to win its first election.
 */
final class ReplicationSlot {

    private static final Logger log = LoggerFactory.getLogger(ReplicationSlot.class);
    private static final String DUPLICATE_OBJECT = "42710";

    private ReplicationSlot() {
    }

    static void ensureExists(PostgresTarget target, String slotName) throws SQLException {
        try (Connection connection = target.connect()) {
            if (exists(connection, slotName)) {
                return;
            }
            try (PreparedStatement create = connection.prepareStatement(
                    "SELECT pg_create_logical_replication_slot(?, 'pgoutput')")) {
                create.setString(1, slotName);
                create.execute();
                log.info("Created logical replication slot {} on {}", slotName, target.database());
            } catch (SQLException e) {
                if (!DUPLICATE_OBJECT.equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    private static boolean exists(Connection connection, String slotName) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
            query.setString(1, slotName);
            try (ResultSet rs = query.executeQuery()) {
                return rs.next();
            }
        }
    }
}
