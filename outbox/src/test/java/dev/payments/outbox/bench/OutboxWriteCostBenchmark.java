package dev.payments.outbox.bench;

import dev.payments.contracts.OrderCreated;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.ToDoubleFunction;

/**
 * What knowing "published" costs per event, in the database, for three designs of the outbox table:
 * <ul>
 *   <li>{@code before}: the table without any bookkeeping (migration 0.1 only) - the baseline;</li>
 *   <li>{@code watermark}: what the relays use - {@code tx_id} and {@code seq} per row, an index on {@code tx_id};
 *       publishing writes nothing per row (the watermark's one UPDATE a second is left out: ~0 per event);</li>
 *   <li>{@code marker}: the alternative - a {@code published_at} column with the partial index a poller needs, set by
 *       the relay with one {@code UPDATE ... WHERE id = ANY(?)} per published batch (a batch of {@code batch} rows, as
 *       Debezium hands over at 300 events/s with a 10 ms poll).</li>
 * </ul>
 * Each writes {@code events} events, one per transaction, through {@link OutboxWriter} on one connection, and
 * reports WAL bytes per event (insert, and the marking for {@code marker}; from {@code pg_stat_statements}, so only
 * what the benchmark's own statements wrote, commit records included), the time per event, and the table's size with
 * its indexes. The three run in turn, {@code rounds} times in rotating order; medians. Production settings (fsync,
 * full-page writes). Not a test: it prints numbers.
 *
 * <pre>./mvnw -q -pl outbox test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.payments.outbox.bench.OutboxWriteCostBenchmark -Dexec.args="20000 3 3"</pre>
 */
public final class OutboxWriteCostBenchmark {

    private static final List<String> DESIGNS = List.of("before", "watermark", "marker");

    private OutboxWriteCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        EmbeddedPostgresServer postgres = PostgresLoad.serverWithStatementStats(EmbeddedPostgresServer.Options.defaults());
        try (Connection admin = PostgresLoad.statsConnection(postgres)) {
            List<List<Run>> byDesign = new ArrayList<>();
            DESIGNS.forEach(d -> byDesign.add(new ArrayList<>()));
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < DESIGNS.size(); i++) {
                    int design = (i + round) % DESIGNS.size();
                    byDesign.get(design).add(run(postgres, admin, DESIGNS.get(design), round, events, batch));
                }
            }
            System.out.printf("%nOutbox write cost, %d events one per transaction, %d rounds (medians), marker batch %d%n",
                    events, rounds, batch);
            System.out.println("| design | WAL per event: insert | + marking | total | time per event | table + indexes per event |");
            System.out.println("|---|---|---|---|---|---|");
            Run baseline = median(byDesign.get(0));
            for (int i = 0; i < DESIGNS.size(); i++) {
                Run m = median(byDesign.get(i));
                System.out.printf("| %s | %.0f B | %.0f B | %.0f B (x%.2f) | %.3f ms (x%.2f) | %.0f B |%n", DESIGNS.get(i),
                        m.insertWal, m.markWal, m.insertWal + m.markWal,
                        (m.insertWal + m.markWal) / (baseline.insertWal + baseline.markWal),
                        m.millisPerEvent, m.millisPerEvent / baseline.millisPerEvent, m.bytesPerRow);
            }
        } finally {
            postgres.close();
            System.exit(0);
        }
    }

    private record Run(double insertWal, double markWal, double millisPerEvent, double bytesPerRow) {
    }

    private static Run run(EmbeddedPostgresServer postgres, Connection admin, String design, int round, int events,
                           int batch) throws SQLException {
        String database = "write_cost_" + design + "_" + round + "_" + System.currentTimeMillis() % 10_000;
        postgres.createDatabase(database);
        SingleConnectionDataSource dataSource = new SingleConnectionDataSource(postgres.jdbcUrl(database),
                postgres.username(), postgres.password(), true);
        var flyway = Flyway.configure().dataSource(dataSource).locations("classpath:db/outbox");
        if (!design.equals("watermark")) {
            flyway.target(MigrationVersion.fromVersion("0.1"));
        }
        flyway.load().migrate();
        JdbcClient jdbc = JdbcClient.create(dataSource);
        if (design.equals("marker")) {
            jdbc.sql("ALTER TABLE outbox ADD COLUMN published_at timestamptz").update();
            jdbc.sql("CREATE INDEX outbox_unpublished_idx ON outbox (created_at) WHERE published_at IS NULL").update();
        }
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        OutboxWriter writer = new OutboxWriter(jdbc, Clock.systemUTC(), TraceContext.NONE);
        for (int i = 0; i < 500; i++) { // warm-up, not measured
            append(transaction, writer);
        }
        jdbc.sql("CHECKPOINT").update();
        long nanos = 0;
        List<UUID> unmarked = new ArrayList<>();
        long insertWal = walOfStatements(admin, database, "INSERT%") + walOfStatements(admin, database, "COMMIT%");
        long markWal = walOfStatements(admin, database, "UPDATE outbox SET published_at%");
        for (int i = 0; i < events; i++) {
            long started = System.nanoTime();
            unmarked.add(append(transaction, writer));
            nanos += System.nanoTime() - started;
            if (design.equals("marker") && unmarked.size() == batch) {
                started = System.nanoTime();
                jdbc.sql("UPDATE outbox SET published_at = now() WHERE id = ANY(:ids)")
                        .param("ids", unmarked.toArray(UUID[]::new)).update();
                nanos += System.nanoTime() - started;
                unmarked.clear();
            }
        }
        // COMMIT's WAL is the commit records of both the inserts' and the marking's transactions (autocommit UPDATEs
        // write theirs inside the UPDATE statement).
        insertWal = walOfStatements(admin, database, "INSERT%") + walOfStatements(admin, database, "COMMIT%") - insertWal;
        markWal = walOfStatements(admin, database, "UPDATE outbox SET published_at%") - markWal;
        long size = jdbc.sql("SELECT pg_total_relation_size('outbox')").query(Long.class).single();
        dataSource.destroy();
        return new Run((double) insertWal / events, (double) markWal / events, nanos / 1e6 / events,
                (double) size / (events + 500));
    }

    private static UUID append(TransactionTemplate transaction, OutboxWriter writer) {
        OrderCreated order = new OrderCreated(UUID.randomUUID(), "bench", 1_000, "KRW", "bench");
        return transaction.execute(status -> writer.append(order)).eventId();
    }

    /** WAL written by the database's statements whose text is like {@code pattern}, so far. */
    private static long walOfStatements(Connection admin, String database, String pattern)
            throws SQLException {
        try (PreparedStatement query = admin.prepareStatement("""
                SELECT coalesce(sum(wal_bytes), 0)::bigint FROM pg_stat_statements
                WHERE dbid = (SELECT oid FROM pg_database WHERE datname = ?) AND query ILIKE ?""")) {
            query.setString(1, database);
            query.setString(2, pattern);
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Run median(List<Run> runs) {
        return new Run(median(runs, Run::insertWal), median(runs, Run::markWal), median(runs, Run::millisPerEvent),
                median(runs, Run::bytesPerRow));
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> value) {
        List<Double> values = new ArrayList<>();
        runs.forEach(run -> values.add(value.applyAsDouble(run)));
        Collections.sort(values);
        return values.get(values.size() / 2);
    }
}
