package dev.payments.drills.observe;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PostgreSQL's cumulative counters, read from the maintenance database as the superuser: commits and rollbacks per
 * database ({@code pg_stat_database}), WAL records, syncs and writes ({@code pg_stat_wal}: a sync is an fsync the
 * commits waited for), and, when the server preloads {@code pg_stat_statements}, statements executed per database.
 * {@code pg_stat_database} is flushed by each backend at most once a second, so read it over steps of several
 * seconds; the statement counts are exact.
 *
 * <p>Keys: {@code db/<database>/commits}, {@code db/<database>/rollbacks}, {@code db/<database>/statements},
 * {@code wal/records}, {@code wal/syncs}, {@code wal/writes}.
 */
public final class PostgresCounters implements AutoCloseable {

    public static final String DB = "db/";
    public static final String WAL = "wal/";

    private final String jdbcUrl;
    private final String user;
    private final String password;
    private Connection connection;
    private Boolean statements;

    public PostgresCounters(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /** The counters now; empty while PostgreSQL does not answer (a db-outage drill). */
    public synchronized Map<String, Double> read() {
        Map<String, Double> values = new LinkedHashMap<>();
        try {
            if (connection == null || connection.isClosed()) {
                connection = DriverManager.getConnection(jdbcUrl, user, password);
                connection.setAutoCommit(true);
            }
            try (Statement s = connection.createStatement()) {
                try (ResultSet r = s.executeQuery("SELECT datname, xact_commit, xact_rollback FROM pg_stat_database"
                        + " WHERE datname IS NOT NULL AND datname NOT LIKE 'template%'")) {
                    while (r.next()) {
                        values.put(DB + r.getString(1) + "/commits", (double) r.getLong(2));
                        values.put(DB + r.getString(1) + "/rollbacks", (double) r.getLong(3));
                    }
                }
                try (ResultSet r = s.executeQuery("SELECT wal_records, wal_sync, wal_write FROM pg_stat_wal")) {
                    if (r.next()) {
                        values.put(WAL + "records", (double) r.getLong(1));
                        values.put(WAL + "syncs", (double) r.getLong(2));
                        values.put(WAL + "writes", (double) r.getLong(3));
                    }
                }
                if (statements == null) {
                    statements = enableStatements(s);
                }
                if (statements) {
                    try (ResultSet r = s.executeQuery("SELECT d.datname, sum(s.calls) FROM pg_stat_statements s"
                            + " JOIN pg_database d ON d.oid = s.dbid GROUP BY d.datname")) {
                        while (r.next()) {
                            values.put(DB + r.getString(1) + "/statements", (double) r.getLong(2));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            close();
        }
        return values;
    }

    /** Statements are counted only where the server was started with the module preloaded (a drill's option). */
    private static boolean enableStatements(Statement s) {
        try {
            try (ResultSet r = s.executeQuery("SHOW shared_preload_libraries")) {
                if (!r.next() || !r.getString(1).contains("pg_stat_statements")) {
                    return false;
                }
            }
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // going away anyway
            }
            connection = null;
        }
    }
}
