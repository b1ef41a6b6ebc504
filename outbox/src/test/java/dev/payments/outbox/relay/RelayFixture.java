package dev.payments.outbox.relay;

import dev.payments.contracts.OrderCreated;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.testsupport.infra.TestTopic;
import dev.payments.outbox.OutboxRetention;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import dev.payments.outbox.config.OutboxProperties;
import dev.payments.outbox.support.RelayTestProperties;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One fresh database with the outbox migrations on the shared PostgreSQL, relays started against it (directly or
 * through another JDBC URL, e.g. a proxy), a writer, and readers of what reached Kafka. Stops its relays on close.
 */
final class RelayFixture implements AutoCloseable {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    final String database;
    final DriverManagerDataSource dataSource;
    final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final OutboxWriter writer;
    private final List<OutboxRelay> relays = new ArrayList<>();
    private final Map<OutboxRelay, MeterRegistry> meters = new IdentityHashMap<>();

    RelayFixture(String prefix) {
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        database = prefix + "_" + DATABASES.incrementAndGet() + "_" + System.nanoTime() % 100_000;
        postgres.createDatabase(database);
        dataSource = new DriverManagerDataSource(postgres.jdbcUrl(database), postgres.username(), postgres.password());
        Flyway.configure().dataSource(dataSource).locations("classpath:db/outbox", "classpath:db/inbox").load().migrate();
        jdbc = JdbcClient.create(dataSource);
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        writer = new OutboxWriter(JdbcClient.create(dataSource), Clock.systemUTC(), TraceContext.NONE);
    }

    String slotName() {
        return "outbox_" + database;
    }

    /** Test timings ({@link RelayTestProperties}) plus {@code outbox.*} overrides. */
    OutboxProperties properties(Map<String, String> overrides) {
        return RelayTestProperties.forDatabase(database, overrides);
    }

    OutboxRelay startRelay() {
        return startRelay(Map.of());
    }

    OutboxRelay startRelay(Map<String, String> overrides) {
        return startRelay(SharedTestInfrastructure.postgres().jdbcUrl(database), overrides);
    }

    OutboxRelay startRelay(String jdbcUrl, Map<String, String> overrides) {
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        OutboxRelay relay = new OutboxRelay(jdbcUrl, postgres.username(), postgres.password(),
                KafkaConnection.of(SharedTestInfrastructure.kafkaClientProperties()), properties(overrides), database, registry,
                Clock.systemUTC());
        relay.start();
        relays.add(relay);
        meters.put(relay, registry);
        return relay;
    }

    /**
     * Waits until the relay streams with Debezium. Holding the lease comes first: until the polling relay has handed
     * over to the engine, an event written can be sent by both (by design, see PollingRelay), which tests that count
     * copies must not mistake for a bug.
     */
    void awaitStreaming(OutboxRelay relay) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                relay.state() == OutboxRelay.State.ACTIVE && "debezium".equals(relay.status().publisher()));
    }

    MeterRegistry meters(OutboxRelay relay) {
        return meters.get(relay);
    }

    /** Events this relay published, by Debezium and by polling. */
    double published(OutboxRelay relay) {
        return meters(relay).get("outbox.relay.published").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    double published(OutboxRelay relay, String by) {
        return meters(relay).get("outbox.relay.published").tag("relay", by).counter().count();
    }

    double gauge(OutboxRelay relay, String name) {
        return meters(relay).get(name).gauge().value();
    }

    List<OrderCreated> appendOrders(int count) {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            OrderCreated order = order();
            transaction.executeWithoutResult(status -> writer.append(order));
            orders.add(order);
        }
        return orders;
    }

    TransactionTemplate transaction() {
        return transaction;
    }

    OutboxWriter writer() {
        return writer;
    }

    long outboxRows() {
        return jdbc.sql("SELECT count(*) FROM outbox").query(Long.class).single();
    }

    /** Rows the relay's published watermark does not cover, as the relay itself counts them. */
    long unpublished() {
        return jdbc.sql("""
                        SELECT count(*) FROM outbox
                        WHERE NOT pg_visible_in_snapshot(tx_id,
                            (SELECT published_through FROM outbox_relay WHERE slot_name = :slot))""")
                .param("slot", slotName()).query(Long.class).single();
    }

    /** Writes an order every {@code period} until stopped; {@link Writer#stop()} returns what it wrote. */
    Writer writeContinuously(Duration period) {
        return new Writer(period);
    }

    final class Writer {
        private final List<OrderCreated> written = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean writing = true;

        private Writer(Duration period) {
            thread = new Thread(() -> {
                while (writing) {
                    written.addAll(appendOrders(1));
                    try {
                        Thread.sleep(period.toMillis());
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "outbox-test-writer");
            thread.start();
        }

        List<OrderCreated> stop() throws InterruptedException {
            writing = false;
            thread.join();
            return List.copyOf(written);
        }
    }

    /**
     * Ends the session streaming the slot and drops the slot, as a failover to a server without it would leave things.
     * The relay may reconnect in between, so this repeats until the drop succeeds.
     */
    void terminateAndDropSlot() {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
            jdbc.sql("""
                    SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots
                    WHERE slot_name = :slot AND active_pid IS NOT NULL""").param("slot", slotName()).query().listOfRows();
            try {
                dropSlot();
                return true;
            } catch (org.springframework.dao.DataAccessException stillActive) {
                return false;
            }
        });
    }

    void dropSlot() {
        jdbc.sql("SELECT pg_drop_replication_slot(:slot)").param("slot", slotName()).query().singleRow();
    }

    boolean slotExists() {
        return jdbc.sql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = :slot")
                .param("slot", slotName()).query(Long.class).single() == 1;
    }

    static OrderCreated order() {
        return new OrderCreated(UUID.randomUUID(), "member-1", 15_000, "KRW", "Annual plan");
    }

    static Set<String> ids(List<OrderCreated> orders) {
        Set<String> ids = new HashSet<>();
        orders.forEach(order -> ids.add(order.orderId().toString()));
        return ids;
    }

    /**
     * Waits until every key arrived at least once (or {@code wait} passed), then returns every record of those keys,
     * duplicates too.
     */
    static List<ConsumerRecord<String, String>> consume(String topic, Set<String> keys, Duration wait) {
        TestTopic events = TestTopic.named(topic);
        Set<String> seen = new HashSet<>();
        events.read(record -> keys.contains(record.key()) && seen.add(record.key()), keys.size(), wait);
        return events.readAll(record -> keys.contains(record.key()));
    }

    static Set<String> keysOf(List<ConsumerRecord<String, String>> records) {
        Set<String> keys = new HashSet<>();
        records.forEach(record -> keys.add(record.key()));
        return keys;
    }

    @Override
    public void close() {
        relays.forEach(OutboxRelay::stop);
    }

    /**
     * Ages every outbox row by {@code by}, then deletes what a service's retention rule on the outbox would delete
     * with a keep of one minute ({@link OutboxRetention#PUBLISHED}; the batching job is service-support's, tested
     * there); returns how many rows went.
     */
    int retainOutbox(Duration by) {
        jdbc.sql("UPDATE outbox SET created_at = created_at - make_interval(secs => :s)")
                .param("s", by.toSeconds()).update();
        return jdbc.sql("DELETE FROM outbox WHERE created_at < clock_timestamp() - interval '1 minute' AND ("
                + OutboxRetention.PUBLISHED + ")").update();
    }
}
