package dev.payments.outbox.inbox;

import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.testsupport.infra.TestTopic;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Consumer errors on a real PostgreSQL and a real broker: a consumer whose database refuses it at once waits for the
 * database instead of parking healthy events on its dead-letter topic, and an event that can never be applied is
 * parked at once. The database is this test's own server, so it can be taken away; the consumer connects as a role
 * of its own, so "too many connections" (SQLSTATE 53300) can be produced exactly.
 *
 * <p>The pool waits only 250 ms for a connection. With Hikari's default 30 s, each attempt waits out that timeout
 * and a bounded retry happens to outlast a short outage (the 75 s stop parked nothing for that reason
 * alone); a short wait makes the refusal as fast as a failover's or an exhausted server's. Before the fix, 4 of the
 * 20 events of each outage below went to the dead-letter topic.
 */
@DirtiesContext
@SpringBootTest(classes = ConsumerErrorHandlingIntegrationTest.ConsumerApp.class, properties = {
        "spring.application.name=inbox-errors-it",
        "outbox.enabled=false",
        "spring.flyway.locations=classpath:db/inbox-it",
        "spring.datasource.hikari.connection-timeout=250",
        "spring.datasource.hikari.maximum-pool-size=4",
        "spring.kafka.listener.concurrency=2",
        "inbox.max-retries=2",
        "inbox.initial-backoff=100ms",
        "inbox.transient-retry.initial-backoff=100ms",
        "inbox.transient-retry.max-backoff=1s",
        "spring.kafka.consumer.key-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "spring.kafka.consumer.value-deserializer=org.apache.kafka.common.serialization.StringDeserializer",
        "spring.kafka.producer.key-serializer=org.apache.kafka.common.serialization.StringSerializer",
        "spring.kafka.producer.value-serializer=org.apache.kafka.common.serialization.StringSerializer"})
class ConsumerErrorHandlingIntegrationTest {

    private static final String ROLE = "inbox_consumer";
    private static final String DATABASE = "inbox_errors";
    private static final String TOPIC = "inbox-errors-it." + UUID.randomUUID();
    private static final String GROUP = "inbox-errors-it-" + UUID.randomUUID();
    private static final String DEAD_LETTERS = Topics.deadLetter(TOPIC, GROUP);
    /** More attempts per record than the bounded retry the consumers had before (5), on both partitions. */
    private static final int ATTEMPTS_DURING_OUTAGE = 2 * 8;
    /** What the test consumer's effect does with an order of this name. */
    private static final String REFUSED = "refused";
    private static final String BUG = "bug";

    private static EmbeddedPostgresServer postgres;

    @Autowired
    KafkaTemplate<String, String> kafka;
    @Autowired
    MeterRegistry meters;
    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) throws Exception {
        postgres = EmbeddedPostgresServer.start(EmbeddedPostgresServer.Options.forTests());
        asSuperuser("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + ROLE + "'",
                "CREATE DATABASE " + DATABASE + " OWNER " + ROLE);
        createTopics();
        registry.add("spring.datasource.url", () -> postgres.jdbcUrl(DATABASE));
        registry.add("spring.datasource.username", () -> ROLE);
        registry.add("spring.datasource.password", () -> ROLE);
        SharedTestInfrastructure.kafkaSpringProperties().forEach((name, value) -> registry.add(name, () -> value));
        registry.add("spring.kafka.consumer.group-id", () -> GROUP);
        registry.add("inbox-it.topic", () -> TOPIC);
    }

    @AfterAll
    static void stopDatabase() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void eventsArrivingWhileTheDatabaseRefusesConnectionsAreAppliedWhenItTakesThemAgain() throws Exception {
        eventsArrivingDuringAnOutageWaitForTheDatabase(
                ConsumerErrorHandlingIntegrationTest::refuseConnections,
                ConsumerErrorHandlingIntegrationTest::acceptConnections);
    }

    @Test
    void eventsArrivingWhileTheDatabaseIsStoppedAreAppliedWhenItIsBack() throws Exception {
        eventsArrivingDuringAnOutageWaitForTheDatabase(postgres::stop, postgres::start);
    }

    @Test
    void anEventThatCanNeverBeAppliedIsParkedAtOnceAndTheOrdersNextEventIsApplied() throws Exception {
        awaitConsumerWorking();
        String key = UUID.randomUUID().toString();   // one key: one partition, these events in this order
        double permanentBefore = failures(FailureKind.PERMANENT);
        double unclassifiedBefore = failures(FailureKind.UNCLASSIFIED);

        String notAnEnvelope = "{\"hello\":\"world\"}";
        String unknownType = envelope(order("shipped")).replace("\"OrderCreated\"", "\"OrderShipped\"");
        OrderCreated refusedOrder = order(REFUSED);
        String refused = envelope(refusedOrder);
        String bug = envelope(order(BUG));
        OrderCreated healthy = order("plan");
        for (String value : List.of(notAnEnvelope, unknownType, refused, bug, envelope(healthy))) {
            kafka.send(TOPIC, key, value).get(10, TimeUnit.SECONDS);
        }

        awaitApplied(List.of(healthy));
        assertThat(deadLettered(Set.of(key))).extracting(ConsumerRecord::value)
                .containsExactly(notAnEnvelope, unknownType, refused, bug);
        assertThat(failures(FailureKind.PERMANENT) - permanentBefore)
                .as("one attempt each: not an envelope, unknown type, refused by the effect").isEqualTo(3);
        assertThat(failures(FailureKind.UNCLASSIFIED) - unclassifiedBefore)
                .as("the bug: the first attempt and inbox.max-retries=2 retries").isEqualTo(3);
        assertThat(applied()).as("the refused effect rolled back with its inbox row").doesNotContain(refusedOrder.orderId());
    }

    /**
     * One transaction per event fell ten thousand events behind at capacity (the capacity drill).
     * Events that wait while the listener is paused arrive in one poll per partition and are applied in one
     * transaction each: their inbox rows share the inserting transaction id ({@code xmin}).
     */
    @Test
    void aPollOfEventsIsAppliedInOneTransaction() throws Exception {
        awaitConsumerWorking();
        List<OrderCreated> sent = whilePaused(() -> sendOrders(60));

        awaitApplied(sent);
        assertThat(transactionsThatApplied(sent)).as("transactions that applied 60 events on 2 partitions")
                .isBetween(1, 6);
    }

    /**
     * A poll with a refused event in the middle: the events before it and after it are applied once each, it alone
     * is parked, after one attempt, as when each event had its own transaction.
     */
    @Test
    void aRefusedEventInAPollIsParkedAloneAndTheRestAreAppliedOnce() throws Exception {
        awaitConsumerWorking();
        String key = UUID.randomUUID().toString();
        double permanentBefore = failures(FailureKind.PERMANENT);
        double appliedBefore = appliedCount();
        List<OrderCreated> healthy = List.of(order("first"), order("second"), order("third"));
        OrderCreated refusedOrder = order(REFUSED);
        String refused = envelope(refusedOrder);

        whilePaused(() -> {
            for (String value : List.of(envelope(healthy.get(0)), envelope(healthy.get(1)), refused,
                    envelope(healthy.get(2)))) {
                kafka.send(TOPIC, key, value).get(10, TimeUnit.SECONDS);
            }
            return null;
        });

        awaitApplied(healthy);
        List<ConsumerRecord<String, String>> parked = deadLettered(Set.of(key));
        assertThat(parked).extracting(ConsumerRecord::value).containsExactly(refused);
        assertThat(TestTopic.header(parked.get(0), "kafka_dlt-exception-cause-fqcn"))
                .as("the operator's list names the effect's refusal, as for a record listener")
                .isEqualTo(OrderRefusedException.class.getName());
        assertThat(failures(FailureKind.PERMANENT) - permanentBefore).isEqualTo(1);
        assertThat(applied()).doesNotContain(refusedOrder.orderId());
        assertThat(appliedCount() - appliedBefore)
                .as("counted once each, after the commit that applied them, not for the poll rolled back")
                .isEqualTo(3);
    }

    /** 20 events arrive while the database is away; none is parked, all are applied once it is back. */
    private void eventsArrivingDuringAnOutageWaitForTheDatabase(DatabaseChange takeAway, DatabaseChange bringBack)
            throws Exception {
        awaitConsumerWorking();
        double transientBefore = failures(FailureKind.TRANSIENT);
        double deadLettersBefore = deadLetters();

        takeAway.apply();
        List<OrderCreated> sent = sendOrders(20);
        awaitListenerPausedAndRetriedBeyondTheOldLimit(transientBefore);
        bringBack.apply();

        awaitApplied(sent);
        assertThat(deadLettered(keys(sent))).isEmpty();
        assertThat(deadLetters()).isEqualTo(deadLettersBefore);
    }

    @FunctionalInterface
    private interface DatabaseChange {
        void apply() throws Exception;
    }

    private void awaitConsumerWorking() throws Exception {
        awaitApplied(sendOrders(1));
    }

    /**
     * The outage lasts until both partitions' first waiting records failed more often than the bounded retry used to
     * allow; meanwhile the listener is seen paused between attempts.
     */
    private void awaitListenerPausedAndRetriedBeyondTheOldLimit(double transientBefore) {
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> meters.get("inbox.listeners.paused").gauge().value() >= 1);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> failures(FailureKind.TRANSIENT) - transientBefore >= ATTEMPTS_DURING_OUTAGE);
    }

    /** Runs {@code sending} with the listener paused, then resumes it: what was sent waits for one poll. */
    private <T> T whilePaused(Callable<T> sending) throws Exception {
        MessageListenerContainer container = listeners.getListenerContainers().iterator().next();
        container.pause();
        try {
            await().atMost(Duration.ofSeconds(20)).until(container::isContainerPaused);
            return sending.call();
        } finally {
            container.resume();
        }
    }

    private static int transactionsThatApplied(List<OrderCreated> orders) throws SQLException {
        try (Connection connection = postgres.connect(DATABASE);
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT count(DISTINCT xmin::text) FROM applied WHERE order_id = ANY (?)")) {
            statement.setArray(1, connection.createArrayOf("uuid", orders.stream().map(OrderCreated::orderId).toArray()));
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private List<OrderCreated> sendOrders(int count) throws Exception {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            OrderCreated order = order("plan " + i);
            orders.add(order);
            kafka.send(TOPIC, order.orderId().toString(), envelope(order));
        }
        kafka.flush();
        return orders;
    }

    private static OrderCreated order(String name) {
        return new OrderCreated(UUID.nameUUIDFromBytes((name + System.nanoTime()).getBytes()), "member-1", 15_000,
                "KRW", name);
    }

    private static String envelope(OrderCreated order) {
        return EventJson.write(EventEnvelope.wrap(order, Instant.now(), null));
    }

    private static void awaitApplied(List<OrderCreated> orders) {
        Set<UUID> ids = orders.stream().map(OrderCreated::orderId).collect(Collectors.toSet());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .untilAsserted(() -> assertThat(applied()).containsAll(ids));
    }

    /** What the consumer applied, read past its pool (which may still be reconnecting). */
    private static Set<UUID> applied() throws SQLException {
        Set<UUID> ids = new HashSet<>();
        try (Connection connection = postgres.connect(DATABASE); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT order_id FROM applied")) {
            while (rows.next()) {
                ids.add(rows.getObject(1, UUID.class));
            }
        }
        return ids;
    }

    private static Set<String> keys(List<OrderCreated> orders) {
        return orders.stream().map(order -> order.orderId().toString()).collect(Collectors.toSet());
    }

    private static List<ConsumerRecord<String, String>> deadLettered(Set<String> keys) {
        return TestTopic.named(DEAD_LETTERS).readAll(record -> keys.contains(record.key()));
    }

    private double failures(FailureKind kind) {
        Counter counter = meters.find("inbox.consumer.failures").tag("topic", TOPIC).tag("kind", kind.tag()).counter();
        return counter == null ? 0 : counter.count();
    }

    private double appliedCount() {
        Counter counter = meters.find("inbox.events").tag("outcome", "applied").counter();
        return counter == null ? 0 : counter.count();
    }

    private double deadLetters() {
        return meters.find("inbox.dead.letters").tag("topic", TOPIC).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /**
     * The consumer's role may open no connection (PostgreSQL answers 53300, "too many connections", at once) and
     * loses the ones it has, as when other clients took every slot and a failover cut the pool.
     */
    private static void refuseConnections() throws SQLException {
        asSuperuser("ALTER ROLE " + ROLE + " CONNECTION LIMIT 0",
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + ROLE + "'");
    }

    private static void acceptConnections() throws SQLException {
        asSuperuser("ALTER ROLE " + ROLE + " CONNECTION LIMIT -1");
    }

    private static void asSuperuser(String... statements) throws SQLException {
        try (Connection connection = postgres.connect("postgres"); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static void createTopics() throws Exception {
        try (Admin admin = Admin.create(SharedTestInfrastructure.kafkaClientProperties())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1), new NewTopic(DEAD_LETTERS, 1, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }

    /** The refusal a service's aggregate would raise for an illegal transition. */
    static final class OrderRefusedException extends RuntimeException {
        OrderRefusedException(String message) {
            super(message);
        }
    }

    @SpringBootApplication
    static class ConsumerApp {

        @Autowired
        Inbox inbox;
        @Autowired
        JdbcClient jdbc;

        @Bean
        static InapplicableEvents inapplicableEvents() {
            return InapplicableEvents.signalledBy(OrderRefusedException.class);
        }

        @KafkaListener(topics = "${inbox-it.topic}", batch = "true")
        void on(List<ConsumerRecord<String, String>> records) {
            inbox.consume(records, envelope -> {
                OrderCreated order = (OrderCreated) envelope.event();
                jdbc.sql("INSERT INTO applied (order_id, order_name) VALUES (:id, :name)")
                        .param("id", order.orderId()).param("name", order.orderName()).update();
                if (REFUSED.equals(order.orderName())) {
                    throw new OrderRefusedException("order " + order.orderId() + " cannot be created twice");
                }
                if (BUG.equals(order.orderName())) {
                    throw new IllegalStateException("a bug in the effect");
                }
            });
        }
    }
}
