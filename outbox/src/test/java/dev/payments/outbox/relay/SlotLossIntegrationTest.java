package dev.payments.outbox.relay;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.payments.outbox.relay.RelayFixture.consume;
import static dev.payments.outbox.relay.RelayFixture.ids;
import static dev.payments.outbox.relay.RelayFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A replication slot that is dropped or lost: detected and alarmed, the polling relay publishes what the slot can no
 * longer stream, and a new slot takes over without a gap. Real PostgreSQL, Debezium and Kafka.
 */
class SlotLossIntegrationTest {

    private static final Map<String, String> QUICK_RECOVERY = Map.of("outbox.relay.slot-recovery-delay", "4s");

    private final RelayFixture fixture = new RelayFixture("slot_loss");

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void eventsCommittedWhileTheSlotWasGoneStillReachKafka() {
        OutboxRelay first = fixture.startRelay();
        fixture.awaitStreaming(first);
        List<OrderCreated> before = fixture.appendOrders(2);
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(30)))).isEqualTo(ids(before));
        first.stop();

        List<OrderCreated> inTheGap = fixture.appendOrders(3);
        fixture.dropSlot();
        OutboxRelay second = fixture.startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> second.state() == OutboxRelay.State.ACTIVE);
        List<OrderCreated> after = fixture.appendOrders(2);

        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(after), Duration.ofSeconds(30)))).isEqualTo(ids(after));
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(inTheGap), Duration.ofSeconds(10))))
                .as("events committed between the slot's loss and its re-creation").isEqualTo(ids(inTheGap));
    }

    @Test
    void aSlotReCreatedFromNowBehindTheRelaysBackIsNotTrustedAndTheGapIsPublished() {
        OutboxRelay first = fixture.startRelay();
        fixture.awaitStreaming(first);
        List<OrderCreated> before = fixture.appendOrders(2);
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(before), Duration.ofSeconds(30)))).isEqualTo(ids(before));
        first.stop();

        List<OrderCreated> inTheGap = fixture.appendOrders(3);
        // Someone "repairs" the slot: dropped and created again, it streams from now, past the gap.
        fixture.dropSlot();
        fixture.jdbc.sql("SELECT pg_create_logical_replication_slot(:slot, 'pgoutput')")
                .param("slot", fixture.slotName()).query().singleRow();
        OutboxRelay second = fixture.startRelay(QUICK_RECOVERY);
        List<OrderCreated> after = fixture.appendOrders(2);

        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(inTheGap), Duration.ofSeconds(45))))
                .as("events the re-created slot skipped").isEqualTo(ids(inTheGap));
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(after), Duration.ofSeconds(30)))).isEqualTo(ids(after));
        // The engine refused the slot (it is ahead of its offsets); the polling relay covered the gap.
        assertThat(fixture.meters(second).get("outbox.relay.fallbacks").tag("reason", "engine_failing").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aSlotLostUnderTheRunningRelayIsAnAlarmAndThePollingRelayCoversUntilANewSlotTakesOver() throws Exception {
        OutboxRelay relay = fixture.startRelay(QUICK_RECOVERY);
        fixture.awaitStreaming(relay);
        List<OrderCreated> first = fixture.appendOrders(1);
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(first), Duration.ofSeconds(30)))).isEqualTo(ids(first));
        assertThat(fixture.published(relay, "debezium")).isEqualTo(1);
        assertThat(fixture.meters(relay).get("outbox.slot.lost").counter().count()).isZero();
        RelayFixture.Writer writer = fixture.writeContinuously(Duration.ofMillis(20));

        fixture.terminateAndDropSlot();

        // The alarm: counter, gauge, health.
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.meters(relay).get("outbox.slot.lost").counter().count() == 1);
        assertThat(fixture.gauge(relay, "outbox.slot.healthy")).isZero();
        assertThat(relay.status().degraded()).startsWith("slot missing");
        assertThat(fixture.meters(relay).get("outbox.relay.fallbacks").tag("reason", "slot_lost").counter().count())
                .isEqualTo(1);
        // The polling relay publishes meanwhile, then a new slot and a new engine take over.
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.published(relay, "polling") > 0);
        assertThat(fixture.gauge(relay, "outbox.relay.mode")).isNotNaN();
        await().atMost(Duration.ofSeconds(30)).until(() -> relay.status().degraded() == null && fixture.slotExists()
                && "debezium".equals(relay.status().publisher()));
        double debeziumAfterHandBack = fixture.published(relay, "debezium");
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.published(relay, "debezium") > debeziumAfterHandBack);
        List<OrderCreated> written = writer.stop();

        List<ConsumerRecord<String, String>> published = consume(Topics.ORDER_EVENTS, ids(written), Duration.ofSeconds(30));
        assertThat(keysOf(published)).as("every event written before, during and after the loss").isEqualTo(ids(written));
        assertThat(fixture.gauge(relay, "outbox.slot.healthy")).isEqualTo(1);
        assertThat(fixture.meters(relay).get("outbox.slot.lost").counter().count()).isEqualTo(1);
    }
}
