package dev.payments.outbox.bench;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.SharedTestInfrastructure;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import dev.payments.outbox.config.OutboxProperties;
import dev.payments.outbox.support.RelayTestProperties;
import dev.payments.outbox.relay.OutboxRelay;
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

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Commit -> Kafka latency of the outbox relay under a steady load (issue 2's target: p99 <= 100 ms at 300 events/s
 * for a minute). One event per transaction, committed at a fixed rate; a plain consumer notes when each event id
 * arrives. Not a test: it prints numbers.
 *
 * <pre>./mvnw -q -f outbox/pom.xml test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.payments.outbox.bench.OutboxRelayBenchmark -Dexec.args="300 60"</pre>
 */
public final class OutboxRelayBenchmark {

    private OutboxRelayBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int perSecond = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        String database = "outbox_bench_" + System.currentTimeMillis() % 100_000;
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        postgres.createDatabase(database);
        SingleConnectionDataSource dataSource = new SingleConnectionDataSource(postgres.jdbcUrl(database),
                postgres.username(), postgres.password(), true);
        Flyway.configure().dataSource(dataSource).locations("classpath:db/outbox").load().migrate();
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        OutboxWriter writer = new OutboxWriter(JdbcClient.create(dataSource), Clock.systemUTC(), TraceContext.NONE);

        OutboxProperties properties = RelayTestProperties.forDatabase(database, Map.of(
                "outbox.relay.offset-flush-interval", "1s", "outbox.relay.heartbeat-interval", "10s"));
        OutboxRelay relay = new OutboxRelay(postgres.jdbcUrl(database), postgres.username(), postgres.password(),
                SharedTestInfrastructure.kafkaBootstrapServers(), properties, database, new SimpleMeterRegistry(),
                Clock.systemUTC());
        relay.start();
        while (relay.state() != OutboxRelay.State.ACTIVE) {
            Thread.sleep(50);
        }

        Map<String, Long> committedAt = new ConcurrentHashMap<>();
        List<Long> latenciesMicros = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean consuming = new AtomicBoolean(true);
        Thread consumer = new Thread(() -> consume(committedAt, latenciesMicros, consuming), "bench-consumer");
        consumer.start();
        Thread.sleep(2_000); // consumer joined and positioned at the end

        int total = perSecond * seconds;
        AtomicInteger sent = new AtomicInteger();
        ScheduledExecutorService producer = Executors.newSingleThreadScheduledExecutor();
        long periodNanos = 1_000_000_000L / perSecond;
        long started = System.nanoTime();
        producer.scheduleAtFixedRate(() -> {
            if (sent.get() >= total) {
                return;
            }
            OrderCreated order = new OrderCreated(UUID.randomUUID(), "bench", 1_000, "KRW", "bench");
            transaction.executeWithoutResult(status -> writer.append(order));
            committedAt.put(order.orderId().toString(), System.nanoTime());
            sent.incrementAndGet();
        }, 0, periodNanos, TimeUnit.NANOSECONDS);
        while (sent.get() < total) {
            Thread.sleep(100);
        }
        double achievedRate = total / ((System.nanoTime() - started) / 1e9);
        producer.shutdownNow();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (latenciesMicros.size() < total && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        consuming.set(false);
        consumer.join();
        relay.stop();

        List<Long> sorted = new ArrayList<>(latenciesMicros);
        Collections.sort(sorted);
        System.out.printf("%nOutbox relay, commit -> consumer (%s), %d events at %.0f/s for %d s%n",
                "Debezium pgoutput + EventRouter, acks=all", total, achievedRate, seconds);
        System.out.printf("  received %d of %d%n", sorted.size(), total);
        System.out.printf("  p50 %.1f ms  p90 %.1f ms  p99 %.1f ms  p99.9 %.1f ms  max %.1f ms%n",
                pct(sorted, 50), pct(sorted, 90), pct(sorted, 99), pct(sorted, 99.9), pct(sorted, 100));
        System.exit(0);
    }

    private static void consume(Map<String, Long> committedAt, List<Long> latenciesMicros, AtomicBoolean consuming) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedTestInfrastructure.kafkaBootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
        try (KafkaConsumer<String, String> kafka = new KafkaConsumer<>(p)) {
            kafka.subscribe(List.of(Topics.ORDER_EVENTS));
            while (consuming.get()) {
                for (ConsumerRecord<String, String> record : kafka.poll(Duration.ofMillis(20))) {
                    long now = System.nanoTime();
                    Long committed = record.key() == null ? null : committedAt.remove(record.key());
                    if (committed != null && record.headers().lastHeader(Topics.HEADER_EVENT_ID) != null) {
                        latenciesMicros.add((now - committed) / 1_000);
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
