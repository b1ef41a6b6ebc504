package dev.payments.outbox.relay;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The right to publish one database's outbox: a PostgreSQL session advisory lock on a connection of its own, fenced in
 * time at both ends.
 *
 * <ul>
 *   <li>The server ends the session when the holder has sent nothing for {@code timeout}
 *       ({@code idle_session_timeout}), which frees the lock even when the holder is frozen or cut off and no TCP
 *       connection ever closes (a lock on a plain session outlived such a holder for the OS TCP timeout, ~2 h).</li>
 *   <li>The holder renews by running a statement every {@code timeout / 5}, and counts its lease as valid only until
 *       {@code 2/3 timeout} after the start of its last successful renewal. It stops publishing at that deadline,
 *       which comes before the server can have freed the lock: the server's clock starts at the end of that same
 *       renewal.</li>
 * </ul>
 * A crashed holder's connection closes and frees the lock at once. Writes of the relay's progress go through
 * {@link #connection()}: a holder whose session the server ended cannot write any more.
 */
final class RelayLease implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RelayLease.class);

    private final Connection connection;
    private final Duration timeout;
    private final LongSupplier nanoTime;
    private volatile long validUntilNanos;
    private volatile boolean lost;
    private volatile boolean closed;
    private long lastRenewalNanos;

    private RelayLease(Connection connection, Duration timeout, LongSupplier nanoTime, long acquiredAtNanos) {
        this.connection = connection;
        this.timeout = timeout;
        this.nanoTime = nanoTime;
        this.lastRenewalNanos = acquiredAtNanos;
        this.validUntilNanos = acquiredAtNanos + validity(timeout).toNanos();
    }

    static Optional<RelayLease> tryAcquire(PostgresTarget target, String slotName, Duration timeout) throws SQLException {
        return tryAcquire(target, slotName, timeout, System::nanoTime);
    }

    static Optional<RelayLease> tryAcquire(PostgresTarget target, String slotName, Duration timeout, LongSupplier nanoTime)
            throws SQLException {
        long started = nanoTime.getAsLong();
        // A statement that hangs (network gone silent) fails before the lease's validity runs out.
        Connection connection = target.connect(socketTimeout(timeout));
        try {
            try (Statement session = connection.createStatement()) {
                session.execute("SET idle_session_timeout = " + timeout.toMillis());
            }
            try (PreparedStatement statement = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
                statement.setString(1, lockName(slotName));
                try (ResultSet rs = statement.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return Optional.of(new RelayLease(connection, timeout, nanoTime, started));
                    }
                }
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        connection.close();
        return Optional.empty();
    }

    static String lockName(String slotName) {
        return "outbox-relay:" + slotName;
    }

    /** How long after the start of a successful renewal the holder may still publish. */
    static Duration validity(Duration timeout) {
        return timeout.multipliedBy(2).dividedBy(3);
    }

    static Duration socketTimeout(Duration timeout) {
        return timeout.dividedBy(3);
    }

    Duration renewInterval() {
        return timeout.dividedBy(5);
    }

    /** Renews when due; false once the lease is lost (then it stays lost). */
    boolean renewIfDue() {
        if (lost) {
            return false;
        }
        if (nanoTime.getAsLong() - lastRenewalNanos < renewInterval().toNanos()) {
            return isValid();
        }
        long started = nanoTime.getAsLong();
        try (PreparedStatement statement = connection.prepareStatement("SELECT 1")) {
            statement.execute();
            lastRenewalNanos = started;
            validUntilNanos = started + validity(timeout).toNanos();
        } catch (SQLException e) {
            log.warn("Outbox relay lease lost: {}", e.toString());
            lost = true;
        }
        return isValid();
    }

    /**
     * Whether the holder may still publish. Cheap and never blocks: the engine's publisher asks before every batch,
     * whatever the renewing thread is stuck on.
     */
    boolean isValid() {
        return !closed && !expired();
    }

    /** Lost or run out, as opposed to given up by {@link #close()}. */
    boolean expired() {
        return lost || nanoTime.getAsLong() - validUntilNanos >= 0;
    }

    /** The lease's own session: statements on it renew nothing, but fail once the server ended the session. */
    Connection connection() {
        return connection;
    }

    /**
     * Ends whatever session still streams the slot: with the lease held, that can only be a holder that lost it
     * without noticing (frozen, cut off). PostgreSQL would end it only after {@code wal_sender_timeout} (60 s).
     */
    int fenceOtherStreams(String slotName) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("""
                SELECT count(pg_terminate_backend(active_pid)) FROM pg_replication_slots
                WHERE slot_name = ? AND active_pid IS NOT NULL AND active_pid <> pg_backend_pid()""")) {
            statement.setString(1, slotName);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            connection.close();
        } catch (SQLException e) {
            log.debug("Closing the relay lease connection failed; the server frees the lock with the session", e);
        }
    }
}
