package dev.payments.outbox.relay;

import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.testsupport.infra.TestTopic;
import dev.payments.outbox.OutboxWriter;
import io.cloudevents.CloudEvent;
import io.cloudevents.SpecVersion;
import io.cloudevents.kafka.CloudEventDeserializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static dev.payments.outbox.relay.RelayFixture.consume;
import static dev.payments.outbox.relay.RelayFixture.ids;
import static dev.payments.outbox.relay.RelayFixture.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The relay on real PostgreSQL (pgoutput), the Debezium embedded engine and a real Kafka broker. */
class OutboxRelayIntegrationTest {

    private final RelayFixture fixture = new RelayFixture("outbox_it");
    private final TransactionTemplate transaction = fixture.transaction();
    private final OutboxWriter writer = fixture.writer();

    @AfterEach
    void stopRelays() {
        fixture.close();
    }

    @Test
    void committedEventsReachKafkaWithKeyHeadersAndGoldenShape() {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);

        List<OrderCreated> sent = fixture.appendOrders(5);

        List<ConsumerRecord<String, String>> received = consume(Topics.ORDER_EVENTS, ids(sent), Duration.ofSeconds(30));
        assertThat(received).hasSize(5);
        for (ConsumerRecord<String, String> record : received) {
            var envelope = EventJson.read(record.value());
            assertThat(record.key()).isEqualTo(envelope.event().orderId().toString());
            assertThat(TestTopic.header(record, Topics.HEADER_EVENT_ID)).isEqualTo(envelope.eventId().toString());
            assertThat(TestTopic.header(record, Topics.HEADER_EVENT_TYPE)).isEqualTo(EventType.ORDER_CREATED.wireName());
            assertThat(GoldenEvents.shapeDifferences(record.value())).isEmpty();
            Map<String, String> golden = GoldenEvents.headers(EventType.ORDER_CREATED, envelope.event().orderId(),
                    envelope.eventId(), TestTopic.header(record, KafkaPublisher.HEADER_CREATED_AT));
            assertThat(headersNamed(record, golden.keySet())).containsExactlyEntriesOf(golden);
        }
    }

    @Test
    void anOffTheShelfCloudEventsConsumerReadsWhatTheRelayPublishes() {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        List<OrderCreated> sent = fixture.appendOrders(2);
        Set<String> orderIds = ids(sent);
        Map<String, ConsumerRecord<String, String>> relayed = new HashMap<>();
        consume(Topics.ORDER_EVENTS, orderIds, Duration.ofSeconds(30)).forEach(r -> relayed.put(r.key(), r));

        Map<String, CloudEvent> read = new HashMap<>();
        Map<String, Object> client = SharedTestInfrastructure.kafkaClientProperties();
        client.put(ConsumerConfig.GROUP_ID_CONFIG, "cloudevents-sdk-" + fixture.database);
        client.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<String, CloudEvent> consumer = new KafkaConsumer<>(client, new StringDeserializer(),
                new CloudEventDeserializer())) {
            consumer.subscribe(List.of(Topics.ORDER_EVENTS));
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> {
                    if (orderIds.contains(r.key())) {
                        read.put(r.key(), r.value());
                    }
                });
                return read.keySet().equals(orderIds);
            });
        }

        read.forEach((orderId, event) -> {
            var envelope = EventJson.read(relayed.get(orderId).value());
            assertThat(event.getSpecVersion()).isEqualTo(SpecVersion.V1);
            assertThat(event.getId()).isEqualTo(envelope.eventId().toString());
            assertThat(event.getType()).isEqualTo("dev.payments.OrderCreated");
            assertThat(event.getSource()).isEqualTo(URI.create("/order-service"));
            assertThat(event.getSubject()).isEqualTo(orderId);
            assertThat(event.getTime()).isNotNull();
            // created_at keeps microseconds; the envelope's own clock reading may carry more.
            assertThat(Duration.between(envelope.occurredAt(), event.getTime().toInstant()).abs())
                    .isLessThan(Duration.ofMillis(1));
            assertThat(event.getDataContentType()).isEqualTo("application/json");
            assertThat(new String(event.getData().toBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(relayed.get(orderId).value());
        });
    }

    private static Map<String, String> headersNamed(ConsumerRecord<String, String> record, Set<String> names) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            if (names.contains(header.key())) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
        }
        return headers;
    }

    @Test
    void aRolledBackTransactionPublishesNothing() {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        OrderCreated rolledBack = order();

        transaction.executeWithoutResult(status -> {
            writer.append(rolledBack);
            status.setRollbackOnly();
        });
        List<OrderCreated> committed = fixture.appendOrders(1);

        List<ConsumerRecord<String, String>> received = consume(Topics.ORDER_EVENTS,
                Set.of(rolledBack.orderId().toString(), committed.get(0).orderId().toString()), Duration.ofSeconds(20));
        assertThat(received).extracting(ConsumerRecord::key).containsExactly(committed.get(0).orderId().toString());
    }

    @Test
    void appendOutsideATransactionIsRefused() {
        assertThatThrownBy(() -> writer.append(order())).isInstanceOf(IllegalTransactionStateException.class);
        assertThat(fixture.jdbc.sql("SELECT count(*) FROM outbox").query(Long.class).single()).isZero();
    }

    @Test
    void eventsWrittenWhileTheRelayIsDownArriveAfterARestart() {
        OutboxRelay first = fixture.startRelay();
        fixture.awaitStreaming(first);
        List<OrderCreated> before = fixture.appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(30));
        first.stop();

        List<OrderCreated> whileDown = fixture.appendOrders(4);
        OutboxRelay second = fixture.startRelay();

        assertThat(consume(Topics.ORDER_EVENTS, ids(whileDown), Duration.ofSeconds(30))).hasSize(4);
        // A graceful stop flushed the offsets: nothing from before the restart is sent again.
        assertThat(consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(3))).hasSize(3);
        assertThat(second.state()).isEqualTo(OutboxRelay.State.ACTIVE);
    }

    @Test
    void onlyOneReplicaStreamsAndAStandbyTakesOver() {
        OutboxRelay a = fixture.startRelay();
        OutboxRelay b = fixture.startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() ->
                a.state() == OutboxRelay.State.ACTIVE || b.state() == OutboxRelay.State.ACTIVE);
        OutboxRelay active = a.state() == OutboxRelay.State.ACTIVE ? a : b;
        OutboxRelay standby = active == a ? b : a;
        assertThat(standby.state()).isEqualTo(OutboxRelay.State.STANDBY);

        active.stop();
        List<OrderCreated> afterFailover = fixture.appendOrders(3);

        await().atMost(Duration.ofSeconds(30)).until(() -> standby.state() == OutboxRelay.State.ACTIVE);
        assertThat(consume(Topics.ORDER_EVENTS, ids(afterFailover), Duration.ofSeconds(30))).hasSize(3);
    }

    @Test
    void anAggregatesEventsAreSentAgainWithTheirOwnIdsInTheirOrder() {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        Instant before = Instant.now().minusSeconds(1);
        OrderCreated order = order();
        OrderPaymentPending pending = new OrderPaymentPending(order.orderId(), UUID.randomUUID());
        OrderCreated other = order();
        transaction.executeWithoutResult(status -> writer.append(order));
        transaction.executeWithoutResult(status -> writer.append(pending));
        transaction.executeWithoutResult(status -> writer.append(other));
        Set<String> keys = Set.of(order.orderId().toString(), other.orderId().toString());
        List<ConsumerRecord<String, String>> published = consume(Topics.ORDER_EVENTS, keys, Duration.ofSeconds(30));
        List<String> orderIds = eventIds(published, order.orderId().toString());
        assertThat(orderIds).hasSize(2);

        List<EventEnvelope> resent = transaction.execute(status ->
                writer.resend("order", order.orderId().toString(), before));

        assertThat(resent).extracting(EventEnvelope::type).containsExactly("OrderCreated", "OrderPaymentPending");
        await().atMost(Duration.ofSeconds(30)).until(() ->
                consume(Topics.ORDER_EVENTS, keys, Duration.ofSeconds(1)).size() == 5);
        List<ConsumerRecord<String, String>> all = consume(Topics.ORDER_EVENTS, keys, Duration.ofSeconds(1));
        assertThat(eventIds(all, order.orderId().toString())).as("the same ids again, in their order")
                .containsExactly(orderIds.get(0), orderIds.get(1), orderIds.get(0), orderIds.get(1));
        assertThat(eventIds(all, other.orderId().toString())).as("another aggregate's event once").hasSize(1);
        List<EventEnvelope> none = transaction.execute(status ->
                writer.resend("order", UUID.randomUUID().toString(), before));
        assertThat(none).isEmpty();
        assertThatThrownBy(() -> writer.resend("order", order.orderId().toString(), before))
                .isInstanceOf(IllegalTransactionStateException.class);
    }

    @Test
    void retentionRemovesOldPublishedRowsWithoutPublishingAnything() throws Exception {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        List<OrderCreated> published = fixture.appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(published), Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.unpublished() == 0);

        int deleted = fixture.retainOutbox(Duration.ofHours(1));

        assertThat(deleted).isEqualTo(3);
        assertThat(fixture.jdbc.sql("SELECT count(*) FROM outbox").query(Long.class).single()).isZero();
        List<OrderCreated> next = fixture.appendOrders(1);
        assertThat(consume(Topics.ORDER_EVENTS, ids(next), Duration.ofSeconds(30))).hasSize(1);
    }

    @Test
    void heartbeatsMoveAnIdleDatabasesSlotPastWhatOtherDatabasesWrite() {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        String busy = fixture.database + "_busy";
        postgres.createDatabase(busy);
        JdbcClient busyDb = JdbcClient.create(new DriverManagerDataSource(postgres.jdbcUrl(busy), postgres.username(),
                postgres.password()));
        busyDb.sql("CREATE TABLE IF NOT EXISTS filler (id bigserial PRIMARY KEY, text varchar(200))").update();
        busyDb.sql("INSERT INTO filler (text) SELECT repeat('x', 150) FROM generate_series(1, 20000)").update();
        String walAfterOtherWrites = busyDb.sql("SELECT pg_current_wal_lsn()::text").query(String.class).single();

        // This database wrote nothing, yet its slot must not hold the other database's WAL forever.
        JdbcClient ownDb = fixture.jdbc;
        await().atMost(Duration.ofSeconds(90)).until(() -> ownDb.sql(
                        "SELECT confirmed_flush_lsn >= CAST(:lsn AS pg_lsn) FROM pg_replication_slots WHERE slot_name = :slot")
                .param("lsn", walAfterOtherWrites).param("slot", relay.slotName()).query(Boolean.class).single());
    }

    private static List<String> eventIds(List<ConsumerRecord<String, String>> records, String key) {
        return records.stream().filter(record -> record.key().equals(key))
                .map(record -> EventJson.read(record.value()).eventId().toString()).toList();
    }
}
