package dev.payments.outbox.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The service's logical replication slot. Only the lease holder creates, advances or drops it, and only when its
 * progress says nothing can be lost by it: a slot is never re-created behind the relay's back to stream "from now".
 */
final class ReplicationSlot {

    private static final Logger log = LoggerFactory.getLogger(ReplicationSlot.class);

    private static final Duration SLOT_WORK_TIMEOUT = Duration.ofMinutes(5);

    private final String name;

    ReplicationSlot(String name) {
        this.name = name;
    }

    String name() {
        return name;
    }

    SlotStatus status(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("""
                SELECT wal_status, pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint, active_pid
                FROM pg_replication_slots WHERE slot_name = ?""")) {
            query.setString(1, name);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    return SlotStatus.MISSING;
                }
                return SlotStatus.of(rs.getString(1), rs.getObject(2, Long.class), rs.getObject(3, Integer.class));
            }
        }
    }

    /**
     * Creates the slot; it streams every transaction that commits after this returns. PostgreSQL waits for the
     * transactions running now to finish before it returns.
     */
    void create(Connection connection) throws SQLException {
        patiently(connection, "SELECT pg_create_logical_replication_slot(?, 'pgoutput')");
        log.info("Created logical replication slot {}", name);
    }

    void drop(Connection connection) throws SQLException {
        patiently(connection, "SELECT pg_drop_replication_slot(?)");
        log.info("Dropped replication slot {}", name);
    }

    /**
     * Moves the slot to the current end of the WAL: it streams every transaction that commits after this returns, and
     * no longer retains what the polling relay published meanwhile.
     */
    void advanceToNow(Connection connection) throws SQLException {
        patiently(connection, "SELECT pg_replication_slot_advance(?, pg_current_wal_lsn())");
    }

    /**
     * Slot work can legitimately take long (creation waits for running transactions, an advance decodes the WAL it
     * skips), longer than the relay's connections wait for a silent server: lift the socket timeout for it.
     */
    private void patiently(Connection connection, String sql) throws SQLException {
        int timeout = connection.getNetworkTimeout();
        connection.setNetworkTimeout(Runnable::run, (int) SLOT_WORK_TIMEOUT.toMillis());
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, name);
            statement.execute();
        } finally {
            connection.setNetworkTimeout(Runnable::run, timeout);
        }
    }
}
