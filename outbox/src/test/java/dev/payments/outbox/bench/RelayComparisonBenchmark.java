package dev.payments.outbox.bench;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import dev.payments.outbox.relay.KafkaConnection;
import dev.payments.outbox.relay.OutboxRelay;
import dev.payments.outbox.support.RelayTestProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Debezium relay and the polling relay side by side in one run, on the same PostgreSQL and Kafka: each publishes
 * the same load from its own database - {@code rate} events per second for {@code seconds} (one event per
 * transaction, one writer), then a burst of {@code burst} events written as fast as one connection can - and the
 * run prints commit -> consumer latency and what each relay cost the database (statements per second from
 * {@code pg_stat_statements}, CPU of the relay's backends, CPU of the whole server). Production relay settings
 * (Debezium polls every 10 ms; the polling relay every 50 ms when idle, 500 rows a batch). Not a test: it prints
 * numbers.
 *
 * <pre>./mvnw -q -pl outbox test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.payments.outbox.bench.RelayComparisonBenchmark -Dexec.args="300 60 3000"</pre>
 */
public final class RelayComparisonBenchmark {

    private static final String RELAY_ROLE = "relay";

    private RelayComparisonBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int burst = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        EmbeddedPostgresServer postgres = PostgresLoad.serverWithStatementStats(EmbeddedPostgresServer.Options.forTests());
        try (Connection admin = PostgresLoad.statsConnection(postgres)) {
            admin.createStatement().execute("CREATE ROLE " + RELAY_ROLE + " LOGIN SUPERUSER PASSWORD '" + RELAY_ROLE + "'");
            List<Phase> phases = new ArrayList<>();
            for (String mode : List.of("debezium", "polling")) {
                phases.add(run(postgres, admin, mode, rate, seconds, burst));
            }
            System.out.printf("%nOutbox relays side by side: %d events/s for %d s, then a burst of %d; commit -> consumer%n",
                    rate, seconds, burst);
            System.out.println("| relay | steady p50 | p99 | max | burst written in | burst all arrived after | burst p99 | "
                    + "relay statements/s | relay backends CPU | PostgreSQL CPU (all) |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|");
            for (Phase phase : phases) {
                System.out.printf("| %s | %.1f ms | %.1f ms | %.1f ms | %.2f s | %.2f s | %.0f ms | %.0f | %.3f cores | %.3f cores |%n",
                        phase.mode, pct(phase.steady, 50), pct(phase.steady, 99), pct(phase.steady, 100),
                        phase.burstWrittenSeconds, phase.burstDrainedSeconds, pct(phase.burst, 99),
                        phase.load.statementsPerSecond(), phase.load.relayCores(), phase.load.serverCores());
            }
            System.out.println("(statements and CPU over the steady phase; the writer's own are left out of both relay columns)");
            Phase debezium = phases.get(0);
            Phase polling = phases.get(1);
            System.out.printf("polling / debezium: steady p50 x%.2f, p99 x%.2f; statements/s x%.2f; relay CPU x%.2f%n",
                    pct(polling.steady, 50) / pct(debezium.steady, 50), pct(polling.steady, 99) / pct(debezium.steady, 99),
                    polling.load.statementsPerSecond() / debezium.load.statementsPerSecond(),
                    polling.load.relayCores() / debezium.load.relayCores());
        } finally {
            postgres.close();
            System.exit(0);
        }
    }

    private record Phase(String mode, List<Long> steady, List<Long> burst, double burstWrittenSeconds,
                         double burstDrainedSeconds, PostgresLoad.Result load) {
    }

    private static Phase run(EmbeddedPostgresServer postgres, Connection admin, String mode, int rate, int seconds,
                             int burst) throws Exception {
        String database = "relay_bench_" + mode + "_" + System.currentTimeMillis() % 100_000;
        postgres.createDatabase(database);
        SingleConnectionDataSource dataSource = new SingleConnectionDataSource(postgres.jdbcUrl(database),
                postgres.username(), postgres.password(), true);
        Flyway.configure().dataSource(dataSource).locations("classpath:db/outbox").load().migrate();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        JdbcClient jdbc = JdbcClient.create(dataSource);
        OutboxWriter writer = new OutboxWriter(jdbc, Clock.systemUTC(), TraceContext.NONE);
        long writerPid = jdbc.sql("SELECT pg_backend_pid()").query(Long.class).single();

        // The relay logs in as a role of its own, so its statements are told apart from the writer's.
        OutboxRelay relay = new OutboxRelay(postgres.jdbcUrl(database), RELAY_ROLE, RELAY_ROLE,
                KafkaConnection.of(SharedTestInfrastructure.kafkaClientProperties()),
                RelayTestProperties.production(database, Map.of("outbox.relay.mode", mode)), database,
                new SimpleMeterRegistry(), Clock.systemUTC());
        relay.start();
        while (!(relay.state() == OutboxRelay.State.ACTIVE && mode.equals(relay.status().publisher()))) {
            Thread.sleep(50);
        }
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        AtomicBoolean consuming = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> consume(arrivedAt, consuming), "bench-consumer");
        consumer.start();
        Thread.sleep(3_000); // the consumer joined and sits at the end of the topic
        awaitArrived(write(transaction, writer, rate, 5, null), arrivedAt, Duration.ofSeconds(30)); // warm-up

        PostgresLoad load = new PostgresLoad(admin, database, RELAY_ROLE, postgres.postmasterPid(), writerPid);
        load.start();
        Map<String, Long> steady = write(transaction, writer, rate, seconds, load);
        awaitArrived(steady, arrivedAt, Duration.ofSeconds(30));
        PostgresLoad.Result result = load.stop();

        long burstStarted = System.nanoTime();
        Map<String, Long> burstCommitted = write(transaction, writer, Integer.MAX_VALUE, burst, null);
        double written = (System.nanoTime() - burstStarted) / 1e9;
        Long drainedAt = awaitArrived(burstCommitted, arrivedAt, Duration.ofSeconds(60));
        consuming.set(false);
        consumer.join();
        relay.stop();
        dataSource.destroy();
        List<Long> steadyLatencies = latencies(steady, arrivedAt);
        List<Long> burstLatencies = latencies(burstCommitted, arrivedAt);
        System.out.printf("%s: steady %d of %d received, burst %d of %d%n", mode, steadyLatencies.size(), steady.size(),
                burstLatencies.size(), burstCommitted.size());
        return new Phase(mode, steadyLatencies, burstLatencies, written,
                drainedAt == null ? Double.NaN : (drainedAt - burstStarted) / 1e9, result);
    }

    /**
     * Writes {@code rate} events a second ({@link Integer#MAX_VALUE}: as fast as one connection can) until
     * {@code count} are written; returns each event's key with the time its transaction had committed.
     */
    private static Map<String, Long> write(TransactionTemplate transaction, OutboxWriter writer, int rate, long count,
                                           PostgresLoad load) throws Exception {
        Map<String, Long> committedAt = new ConcurrentHashMap<>();
        long period = rate == Integer.MAX_VALUE ? 0 : 1_000_000_000L / rate;
        long start = System.nanoTime();
        long nextSample = start;
        long events = rate == Integer.MAX_VALUE ? count : (long) rate * count;
        for (long i = 0; i < events; i++) {
            long wait = start + i * period - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            OrderCreated order = new OrderCreated(UUID.randomUUID(), "bench", 1_000, "KRW", "bench");
            transaction.executeWithoutResult(status -> writer.append(order));
            committedAt.put(order.orderId().toString(), System.nanoTime());
            if (load != null && System.nanoTime() >= nextSample) {
                load.sample();
                nextSample = System.nanoTime() + 1_000_000_000L;
            }
        }
        return committedAt;
    }

    /** Waits until every key arrived; returns when the last one did, or null if some never did. */
    private static Long awaitArrived(Map<String, Long> committed, Map<String, Long> arrivedAt, Duration atMost)
            throws InterruptedException {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            if (arrivedAt.keySet().containsAll(committed.keySet())) {
                return committed.keySet().stream().mapToLong(arrivedAt::get).max().orElse(System.nanoTime());
            }
            Thread.sleep(20);
        }
        return null;
    }

    /** Commit -> first arrival, in microseconds, of every key that arrived. */
    private static List<Long> latencies(Map<String, Long> committed, Map<String, Long> arrivedAt) {
        List<Long> latencies = new ArrayList<>();
        committed.forEach((key, at) -> {
            Long arrived = arrivedAt.get(key);
            if (arrived != null) {
                latencies.add(Math.max(0, arrived - at) / 1_000);
            }
        });
        Collections.sort(latencies);
        return latencies;
    }

    private static void consume(Map<String, Long> arrivedAt, AtomicBoolean consuming) {
        Properties p = new Properties();
        p.putAll(SharedTestInfrastructure.kafkaClientProperties());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
        try (KafkaConsumer<String, String> kafka = new KafkaConsumer<>(p)) {
            kafka.subscribe(List.of(Topics.ORDER_EVENTS));
            while (consuming.get()) {
                for (ConsumerRecord<String, String> record : kafka.poll(Duration.ofMillis(20))) {
                    if (record.key() != null) {
                        arrivedAt.putIfAbsent(record.key(), System.nanoTime());
                    }
                }
            }
        }
    }

    private static double pct(List<Long> sortedMicros, double percentile) {
        if (sortedMicros.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sortedMicros.size()) - 1;
        return sortedMicros.get(Math.max(0, Math.min(index, sortedMicros.size() - 1))) / 1000.0;
    }
}
