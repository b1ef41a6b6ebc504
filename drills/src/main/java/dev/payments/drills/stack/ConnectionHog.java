package dev.payments.drills.stack;

import org.postgresql.PGConnection;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Exhausts a PostgreSQL server's {@code max_connections}: takes every free slot, ends every other client session and
 * takes its slot too, and keeps doing so while it holds them, so that each new connection of the services is refused
 * at once ({@code 53300 too many clients}) and their pooled sessions are cut as by a failover ({@code 57P01}).
 * Replication (WAL sender) sessions have slots of their own and are left alone. {@link #close()} gives every slot
 * back.
 */
public final class ConnectionHog implements AutoCloseable {

    private static final String TOO_MANY_CONNECTIONS = "53300";
    /** A bound on the slots taken, far above the local stack's 300, against a server configured for thousands. */
    private static final int MAX_HELD = 2_000;

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private final List<Connection> held = new ArrayList<>();
    private final AtomicInteger terminated = new AtomicInteger();
    private volatile boolean keeping;
    private Thread keeper;

    public ConnectionHog(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /**
     * Takes every slot and keeps them until {@link #close()}: other clients' sessions are ended every
     * {@code interval} and their slots taken before their pools can reconnect.
     *
     * @return the slots held once no other client session was left
     */
    public synchronized int take(Duration interval) throws SQLException {
        fill();
        if (held.isEmpty()) {
            throw new IllegalStateException("PostgreSQL at " + jdbcUrl + " refused even the first connection");
        }
        for (int round = 0; round < 50 && endOthers() > 0; round++) {
            fill();
        }
        keeping = true;
        keeper = new Thread(() -> keep(interval), "drill-connection-hog");
        keeper.setDaemon(true);
        keeper.start();
        return held.size();
    }

    /** Sessions of other clients ended so far. */
    public int terminated() {
        return terminated.get();
    }

    public synchronized int held() {
        return held.size();
    }

    private void keep(Duration interval) {
        while (keeping) {
            synchronized (this) {
                if (!keeping) {
                    return;
                }
                try {
                    endOthers();
                    fill();
                } catch (SQLException e) {
                    // A held session may itself be gone; the next round uses another one.
                    held.removeIf(ConnectionHog::isClosed);
                }
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Opens connections until the server refuses one for want of slots. */
    private void fill() throws SQLException {
        while (held.size() < MAX_HELD) {
            try {
                held.add(DriverManager.getConnection(jdbcUrl, user, password));
            } catch (SQLException e) {
                if (TOO_MANY_CONNECTIONS.equals(e.getSQLState())) {
                    return;
                }
                throw e;
            }
        }
    }

    /** Ends every client session that is not one of ours; returns how many. */
    private int endOthers() throws SQLException {
        if (held.isEmpty()) {
            return 0;
        }
        Connection any = held.get(0);
        List<Integer> ours = new ArrayList<>();
        for (Connection connection : held) {
            ours.add(connection.unwrap(PGConnection.class).getBackendPID());
        }
        Array pids = any.createArrayOf("int4", ours.toArray());
        int ended = 0;
        try (PreparedStatement terminate = any.prepareStatement("""
                SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND NOT (pid = ANY (?))""")) {
            terminate.setArray(1, pids);
            try (ResultSet row = terminate.executeQuery()) {
                if (row.next()) {
                    ended = row.getInt(1);
                }
            }
        }
        terminated.addAndGet(ended);
        return ended;
    }

    /** What the server's limit is, for the report. */
    public int maxConnections() throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, user, password);
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW max_connections")) {
            row.next();
            return Integer.parseInt(row.getString(1));
        }
    }

    private static boolean isClosed(Connection connection) {
        try {
            return connection.isClosed() || !connection.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }

    @Override
    public void close() {
        keeping = false;
        if (keeper != null) {
            keeper.interrupt();
            try {
                keeper.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            for (Connection connection : held) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // the slot is free either way once the session ends
                }
            }
            held.clear();
        }
    }
}
