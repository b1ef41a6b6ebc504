package dev.payments.outbox.bench;

import dev.payments.localstack.infra.EmbeddedPostgresServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What a relay costs PostgreSQL over a phase of a benchmark: the statements its role executed
 * ({@code pg_stat_statements}; a walsender's streaming is not a statement) and the CPU of the database's backends but
 * the writer's (walsenders included), read from {@code /proc}; the whole server's CPU beside it, for the background
 * processes (WAL writer, checkpointer) no database owns.
 */
final class PostgresLoad {

    private static final double TICKS_PER_SECOND = 100.0; // USER_HZ on Linux

    private final Connection admin;
    private final String database;
    private final String role;
    private final long postmasterPid;
    private final long excludedPid;
    private final Map<Long, Long> firstTicks = new HashMap<>();
    private final Map<Long, Long> lastTicks = new HashMap<>();
    private long statementsAtStart;
    private long serverTicksAtStart;
    private long startedNanos;

    /** A PostgreSQL for a benchmark, counting statements and their WAL ({@code pg_stat_statements}, utility included). */
    static EmbeddedPostgresServer serverWithStatementStats(EmbeddedPostgresServer.Options options) {
        return EmbeddedPostgresServer.start(options
                .withSetting("shared_preload_libraries", "pg_stat_statements")
                .withSetting("pg_stat_statements.track", "all")
                .withSetting("pg_stat_statements.track_utility", "on"));
    }

    /** A connection to the maintenance database, where the statement statistics of every database are read. */
    static Connection statsConnection(EmbeddedPostgresServer server) throws SQLException {
        Connection admin = server.connect("postgres");
        try (Statement create = admin.createStatement()) {
            create.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        return admin;
    }

    /**
     * Measures {@code database}: statements of {@code role} (the relay's), CPU of its backends but {@code excludedPid}
     * (the benchmark's own writer).
     */
    PostgresLoad(Connection admin, String database, String role, OptionalLong postmasterPid, long excludedPid) {
        this.admin = admin;
        this.database = database;
        this.role = role;
        this.postmasterPid = postmasterPid.orElseThrow();
        this.excludedPid = excludedPid;
    }

    void start() throws SQLException {
        firstTicks.clear();
        lastTicks.clear();
        statementsAtStart = statements();
        serverTicksAtStart = serverTicks();
        startedNanos = System.nanoTime();
        sample();
    }

    /** Call about once a second: a backend's ticks are read while it exists. */
    void sample() throws SQLException {
        try (PreparedStatement query = admin.prepareStatement(
                "SELECT pid FROM pg_stat_activity WHERE datname = ? AND pid <> ?")) {
            query.setString(1, database);
            query.setLong(2, excludedPid);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    long pid = rs.getLong(1);
                    long ticks = ticks(pid);
                    if (ticks >= 0) {
                        firstTicks.putIfAbsent(pid, ticks);
                        lastTicks.put(pid, ticks);
                    }
                }
            }
        }
    }

    Result stop() throws SQLException {
        sample();
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        long ticks = 0;
        for (Map.Entry<Long, Long> last : lastTicks.entrySet()) {
            ticks += last.getValue() - firstTicks.get(last.getKey());
        }
        return new Result((statements() - statementsAtStart) / seconds, ticks / TICKS_PER_SECOND / seconds,
                (serverTicks() - serverTicksAtStart) / TICKS_PER_SECOND / seconds);
    }

    /**
     * @param statementsPerSecond statements of the relay's role in this database, per second
     * @param relayCores          CPU of this database's backends other than the writer, in cores
     * @param serverCores         CPU of every PostgreSQL process, in cores (writer and background included)
     */
    record Result(double statementsPerSecond, double relayCores, double serverCores) {
    }

    private long statements() throws SQLException {
        try (PreparedStatement query = admin.prepareStatement("""
                SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ?)
                  AND userid = (SELECT oid FROM pg_roles WHERE rolname = ?)""")) {
            query.setString(1, database);
            query.setString(2, role);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long serverTicks() {
        return ProcessHandle.of(postmasterPid).map(postmaster -> {
            long total = ticks(postmaster.pid());
            for (ProcessHandle child : postmaster.descendants().toList()) {
                total += Math.max(0, ticks(child.pid()));
            }
            return total;
        }).orElse(0L);
    }

    /** utime + stime of a process, -1 if it is gone. */
    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
