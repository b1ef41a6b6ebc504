package dev.payments.outbox.relay;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.testsupport.infra.TcpProxy;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.payments.outbox.relay.RelayFixture.consume;
import static dev.payments.outbox.relay.RelayFixture.ids;
import static dev.payments.outbox.relay.RelayFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The single-active-relay lease when its holder is frozen rather than dead: the holder reaches PostgreSQL through a
 * TCP proxy that stops forwarding (a frozen VM, a silent network cut), so no connection closes and PostgreSQL sees an
 * idle session. Real PostgreSQL, Debezium and Kafka.
 */
class RelayLeaseIntegrationTest {

    private final RelayFixture fixture = new RelayFixture("relay_lease");
    private TcpProxy proxy;

    @AfterEach
    void stop() {
        fixture.close();
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aFrozenHoldersLeaseIsTakenOverWithin30sAndTheTwoNeverPublishAtOnce() {
        EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
        proxy = TcpProxy.to("127.0.0.1", postgres.port());
        OutboxRelay frozen = fixture.startRelay("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + fixture.database,
                Map.of());
        fixture.awaitStreaming(frozen);
        OutboxRelay standby = fixture.startRelay();
        List<OrderCreated> before = fixture.appendOrders(3);
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(30)))).isEqualTo(ids(before));
        assertThat(standby.state()).isEqualTo(OutboxRelay.State.STANDBY);

        proxy.freeze();
        long frozenAt = System.nanoTime();
        List<OrderCreated> whileFrozen = fixture.appendOrders(3);

        await().atMost(Duration.ofSeconds(30)).until(() -> standby.state() == OutboxRelay.State.ACTIVE);
        List<ConsumerRecord<String, String>> published = consume(Topics.ORDER_EVENTS, ids(whileFrozen),
                Duration.ofSeconds(30) .minusNanos(System.nanoTime() - frozenAt));
        Duration takeover = Duration.ofNanos(System.nanoTime() - frozenAt);
        assertThat(keysOf(published)).as("events written after the freeze, published by the standby")
                .isEqualTo(ids(whileFrozen));
        assertThat(takeover).isLessThan(Duration.ofSeconds(30));
        double frozenPublishedAtTakeover = fixture.published(frozen);

        // The network comes back: the old holder finds its lease gone and stands by; it publishes nothing more.
        proxy.thaw();
        await().atMost(Duration.ofSeconds(30)).until(() -> frozen.state() == OutboxRelay.State.STANDBY);
        List<OrderCreated> afterThaw = fixture.appendOrders(3);
        List<ConsumerRecord<String, String>> afterThawPublished =
                consume(Topics.ORDER_EVENTS, ids(afterThaw), Duration.ofSeconds(30));

        assertThat(standby.state()).isEqualTo(OutboxRelay.State.ACTIVE);
        assertThat(fixture.published(frozen)).as("events the frozen holder published after the standby took over")
                .isEqualTo(frozenPublishedAtTakeover);
        Map<String, Long> copies = afterThawPublished.stream()
                .collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
        assertThat(copies).as("each event after the thaw published once").hasSize(3)
                .allSatisfy((key, count) -> assertThat(count).isEqualTo(1));
    }
}
