package dev.payments.outbox.relay;

import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.SharedTestInfrastructure;
import dev.payments.localstack.infra.TestTopic;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import dev.payments.outbox.config.OutboxProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The relay on real PostgreSQL (pgoutput), the Debezium embedded engine and a real Kafka broker. */
class OutboxRelayIntegrationTest {

    private static final AtomicInteger DATABASES = new AtomicInteger();

    private String database;
    private DriverManagerDataSource dataSource;
    private TransactionTemplate transaction;
    private OutboxWriter writer;
    private final List<OutboxRelay> relays = new ArrayList<>();

    @BeforeEach
    void freshDatabase() {
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        database = "outbox_it_" + DATABASES.incrementAndGet() + "_" + System.nanoTime() % 100_000;
        postgres.createDatabase(database);
        dataSource = new DriverManagerDataSource(postgres.jdbcUrl(database), postgres.username(), postgres.password());
        Flyway.configure().dataSource(dataSource).locations("classpath:db/outbox", "classpath:db/inbox").load().migrate();
        transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        writer = new OutboxWriter(JdbcClient.create(dataSource), Clock.systemUTC(), TraceContext.NONE);
    }

    @AfterEach
    void stopRelays() {
        relays.forEach(OutboxRelay::stop);
    }

    @Test
    void committedEventsReachKafkaWithKeyHeadersAndGoldenShape() {
        OutboxRelay relay = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.state() == OutboxRelay.State.ACTIVE);

        List<OrderCreated> sent = appendOrders(5);

        List<ConsumerRecord<String, String>> received = consume(Topics.ORDER_EVENTS, ids(sent), Duration.ofSeconds(30));
        assertThat(received).hasSize(5);
        for (ConsumerRecord<String, String> record : received) {
            var envelope = EventJson.read(record.value());
            assertThat(record.key()).isEqualTo(envelope.event().orderId().toString());
            assertThat(header(record, Topics.HEADER_EVENT_ID)).isEqualTo(envelope.eventId().toString());
            assertThat(header(record, Topics.HEADER_EVENT_TYPE)).isEqualTo(EventType.ORDER_CREATED.wireName());
            assertThat(GoldenEvents.shapeDifferences(record.value())).isEmpty();
        }
    }

    @Test
    void aRolledBackTransactionPublishesNothing() {
        OutboxRelay relay = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.state() == OutboxRelay.State.ACTIVE);
        OrderCreated rolledBack = order();

        transaction.executeWithoutResult(status -> {
            writer.append(rolledBack);
            status.setRollbackOnly();
        });
        List<OrderCreated> committed = appendOrders(1);

        List<ConsumerRecord<String, String>> received = consume(Topics.ORDER_EVENTS,
                Set.of(rolledBack.orderId().toString(), committed.get(0).orderId().toString()), Duration.ofSeconds(20));
        assertThat(received).extracting(ConsumerRecord::key).containsExactly(committed.get(0).orderId().toString());
    }

    @Test
    void appendOutsideATransactionIsRefused() {
        assertThatThrownBy(() -> writer.append(order())).isInstanceOf(IllegalTransactionStateException.class);
        assertThat(JdbcClient.create(dataSource).sql("SELECT count(*) FROM outbox").query(Long.class).single()).isZero();
    }

    @Test
    void eventsWrittenWhileTheRelayIsDownArriveAfterARestart() {
        OutboxRelay first = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> first.state() == OutboxRelay.State.ACTIVE);
        List<OrderCreated> before = appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(30));
        first.stop();

        List<OrderCreated> whileDown = appendOrders(4);
        OutboxRelay second = startRelay();

        assertThat(consume(Topics.ORDER_EVENTS, ids(whileDown), Duration.ofSeconds(30))).hasSize(4);
        // A graceful stop flushed the offsets: nothing from before the restart is sent again.
        assertThat(consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(3))).hasSize(3);
        assertThat(second.state()).isEqualTo(OutboxRelay.State.ACTIVE);
    }

    @Test
    void onlyOneReplicaStreamsAndAStandbyTakesOver() {
        OutboxRelay a = startRelay();
        OutboxRelay b = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                a.state() == OutboxRelay.State.ACTIVE || b.state() == OutboxRelay.State.ACTIVE);
        OutboxRelay active = a.state() == OutboxRelay.State.ACTIVE ? a : b;
        OutboxRelay standby = active == a ? b : a;
        assertThat(standby.state()).isEqualTo(OutboxRelay.State.STANDBY);

        active.stop();
        List<OrderCreated> afterFailover = appendOrders(3);

        await().atMost(Duration.ofSeconds(30)).until(() -> standby.state() == OutboxRelay.State.ACTIVE);
        assertThat(consume(Topics.ORDER_EVENTS, ids(afterFailover), Duration.ofSeconds(30))).hasSize(3);
    }

    @Test
    void cleanupRemovesOldRowsWithoutPublishingAnything() throws Exception {
        OutboxRelay relay = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.state() == OutboxRelay.State.ACTIVE);
        List<OrderCreated> published = appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(published), Duration.ofSeconds(30));

        int deleted = relay.cleanup().deletePublishedBefore(Instant.now().plusSeconds(1));

        assertThat(deleted).isEqualTo(3);
        assertThat(JdbcClient.create(dataSource).sql("SELECT count(*) FROM outbox").query(Long.class).single()).isZero();
        List<OrderCreated> next = appendOrders(1);
        assertThat(consume(Topics.ORDER_EVENTS, ids(next), Duration.ofSeconds(30))).hasSize(1);
    }

    @Test
    void heartbeatsMoveAnIdleDatabasesSlotPastWhatOtherDatabasesWrite() {
        OutboxRelay relay = startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.state() == OutboxRelay.State.ACTIVE);
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        String busy = database + "_busy";
        postgres.createDatabase(busy);
        JdbcClient busyDb = JdbcClient.create(new DriverManagerDataSource(postgres.jdbcUrl(busy), postgres.username(),
                postgres.password()));
        busyDb.sql("CREATE TABLE IF NOT EXISTS filler (id bigserial PRIMARY KEY, text varchar(200))").update();
        busyDb.sql("INSERT INTO filler (text) SELECT repeat('x', 150) FROM generate_series(1, 20000)").update();
        String walAfterOtherWrites = busyDb.sql("SELECT pg_current_wal_lsn()::text").query(String.class).single();

        // This database wrote nothing, yet its slot must not hold the other database's WAL forever.
        JdbcClient ownDb = JdbcClient.create(dataSource);
        await().atMost(Duration.ofSeconds(90)).until(() -> ownDb.sql(
                        "SELECT confirmed_flush_lsn >= CAST(:lsn AS pg_lsn) FROM pg_replication_slots WHERE slot_name = :slot")
                .param("lsn", walAfterOtherWrites).param("slot", relay.slotName()).query(Boolean.class).single());
    }

    private OutboxRelay startRelay() {
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        OutboxProperties properties = new OutboxProperties(true,
                new OutboxProperties.Relay(true, "outbox_" + database, "_outbox-offsets." + database, (short) 1,
                        Duration.ofMillis(500), Duration.ofMillis(10), Duration.ofMillis(500), Duration.ofMillis(500),
                        Duration.ofMillis(500), Map.of()),
                new OutboxProperties.Cleanup(Duration.ofHours(1), Duration.ofHours(72)));
        OutboxRelay relay = new OutboxRelay(postgres.jdbcUrl(database), postgres.username(), postgres.password(),
                SharedTestInfrastructure.kafkaBootstrapServers(), properties, database, new SimpleMeterRegistry(),
                Clock.systemUTC());
        relay.start();
        relays.add(relay);
        return relay;
    }

    private List<OrderCreated> appendOrders(int count) {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            OrderCreated order = order();
            transaction.executeWithoutResult(status -> writer.append(order));
            orders.add(order);
        }
        return orders;
    }

    private static OrderCreated order() {
        return new OrderCreated(UUID.randomUUID(), "member-1", 15_000, "KRW", "Annual plan");
    }

    private static Set<String> ids(List<OrderCreated> orders) {
        Set<String> ids = new HashSet<>();
        orders.forEach(order -> ids.add(order.orderId().toString()));
        return ids;
    }

    /** Waits until every key arrived (or {@code wait} passed), then returns every record of those keys, duplicates too. */
    static List<ConsumerRecord<String, String>> consume(String topic, Set<String> keys, Duration wait) {
        TestTopic events = TestTopic.named(topic);
        events.read(record -> keys.contains(record.key()), keys.size(), wait);
        return events.readAll(record -> keys.contains(record.key()));
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        return TestTopic.header(record, name);
    }
}
