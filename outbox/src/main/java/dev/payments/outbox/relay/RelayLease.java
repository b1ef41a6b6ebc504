package dev.payments.outbox.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The right to run the relay for one database: a PostgreSQL session advisory lock held on a dedicated connection
 * (never one from the request pool). When the holder dies its connection closes and the lock is free for a standby
 * replica; only one engine can read a replication slot anyway, the lease keeps the others from trying.
 */
final class RelayLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelayLease.class);

    private final Connection connection;

    private RelayLease(Connection connection) {
        this.connection = connection;
    }

    static Optional<RelayLease> tryAcquire(PostgresTarget target, String slotName) throws SQLException {
        Connection connection = target.connect();
        try (PreparedStatement statement = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
            statement.setString(1, "outbox-relay:" + slotName);
            try (ResultSet rs = statement.executeQuery()) {
                if (rs.next() && rs.getBoolean(1)) {
                    return Optional.of(new RelayLease(connection));
                }
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        connection.close();
        return Optional.empty();
    }

    /** False once the lease connection is gone (database restarted, network cut): the lock may be someone else's. */
    boolean isHeld() {
        try (PreparedStatement statement = connection.prepareStatement("SELECT 1")) {
            statement.setQueryTimeout(5);
            statement.execute();
            return true;
        } catch (SQLException e) {
            log.warn("Outbox relay lease connection lost: {}", e.toString());
            return false;
        }
    }

    /** Bytes of WAL the slot keeps from being recycled: what an idle or stuck relay costs the database's disk. */
    long retainedWalBytes(String slotName) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint FROM pg_replication_slots WHERE slot_name = ?")) {
            statement.setQueryTimeout(5);
            statement.setString(1, slotName);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing the relay lease connection failed; the server frees the lock with the session", e);
        }
    }
}
