package dev.payments.outbox.relay;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.payments.outbox.relay.RelayFixture.consume;
import static dev.payments.outbox.relay.RelayFixture.ids;
import static dev.payments.outbox.relay.RelayFixture.keysOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Debezium relay and the polling relay over the same outbox table: a hand-over in either direction under a
 * steady stream of writes leaves no event behind, and a consumer cannot tell which relay sent an event. Also the
 * retention rule, which deletes only what the relays have published. Real PostgreSQL, Debezium and Kafka.
 */
class RelayHandOverIntegrationTest {

    private static final Map<String, String> POLLING = Map.of("outbox.relay.mode", "polling");

    private final RelayFixture fixture = new RelayFixture("relay_handover");

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void fromDebeziumToPollingAndBackUnderLoadWithoutAGap() throws Exception {
        RelayFixture.Writer writer = fixture.writeContinuously(Duration.ofMillis(20));
        OutboxRelay debezium = fixture.startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> fixture.published(debezium, "debezium") >= 20);

        debezium.stop();
        OutboxRelay polling = fixture.startRelay(POLLING);
        await().atMost(Duration.ofSeconds(30)).until(() -> fixture.published(polling, "polling") >= 20);
        assertThat(fixture.slotExists()).as("a polling relay keeps no slot to retain WAL").isFalse();

        polling.stop();
        OutboxRelay debeziumAgain = fixture.startRelay();
        await().atMost(Duration.ofSeconds(30)).until(() -> fixture.published(debeziumAgain, "debezium") >= 20);
        List<OrderCreated> written = writer.stop();

        List<ConsumerRecord<String, String>> published = consume(Topics.ORDER_EVENTS, ids(written), Duration.ofSeconds(30));
        assertThat(keysOf(published)).as("every event written across both hand-overs").isEqualTo(ids(written));
        assertThat(fixture.published(polling, "debezium")).isZero();
        assertThat(fixture.published(debeziumAgain, "polling"))
                .as("the hand-back drains what the polling relay had not published yet")
                .isLessThan(written.size());
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.unpublished() == 0);
    }

    @Test
    void aConsumerCannotTellWhichRelaySentAnEvent() {
        OutboxRelay debezium = fixture.startRelay();
        fixture.awaitStreaming(debezium);
        List<OrderCreated> orders = fixture.appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(orders), Duration.ofSeconds(30));
        assertThat(fixture.published(debezium, "debezium")).isGreaterThanOrEqualTo(3);
        debezium.stop();

        // As if the watermark had never moved: the polling relay sends the same rows again.
        fixture.jdbc.sql("UPDATE outbox_relay SET published_through = '1:1:' WHERE slot_name = :slot")
                .param("slot", fixture.slotName()).update();
        OutboxRelay polling = fixture.startRelay(POLLING);
        await().atMost(Duration.ofSeconds(30)).until(() -> fixture.published(polling, "polling") >= 3);
        List<ConsumerRecord<String, String>> copies = consume(Topics.ORDER_EVENTS, ids(orders), Duration.ofSeconds(10));

        Map<String, List<ConsumerRecord<String, String>>> byEvent =
                copies.stream().collect(Collectors.groupingBy(TestHeaders::eventId));
        assertThat(byEvent).hasSize(3);
        byEvent.forEach((eventId, records) -> {
            assertThat(records).as("copies of " + eventId + ": one from each relay at least").hasSizeGreaterThanOrEqualTo(2);
            ConsumerRecord<String, String> first = records.get(0);
            for (ConsumerRecord<String, String> record : records) {
                assertThat(record.topic()).isEqualTo(first.topic());
                assertThat(record.partition()).isEqualTo(first.partition());
                assertThat(record.key()).isEqualTo(first.key());
                assertThat(record.value()).isEqualTo(first.value());
                assertThat(TestHeaders.of(record)).isEqualTo(TestHeaders.of(first));
            }
        });
    }

    @Test
    void retentionNeverDeletesAnUnpublishedRowHoweverOld() throws Exception {
        OutboxRelay relay = fixture.startRelay();
        fixture.awaitStreaming(relay);
        List<OrderCreated> published = fixture.appendOrders(3);
        consume(Topics.ORDER_EVENTS, ids(published), Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.unpublished() == 0);
        relay.stop();
        List<OrderCreated> notYetPublished = fixture.appendOrders(2);

        int deleted = fixture.retainOutbox(Duration.ofDays(30));

        assertThat(deleted).isEqualTo(3);
        assertThat(fixture.outboxRows()).isEqualTo(2);
        OutboxRelay next = fixture.startRelay();
        assertThat(keysOf(consume(Topics.ORDER_EVENTS, ids(notYetPublished), Duration.ofSeconds(30))))
                .isEqualTo(ids(notYetPublished));
        await().atMost(Duration.ofSeconds(15)).until(() -> fixture.unpublished() == 0);
        assertThat(fixture.retainOutbox(Duration.ofHours(1))).isEqualTo(2);
    }

    /** Header names and values of a record, in order. */
    private static final class TestHeaders {
        static Map<String, String> of(ConsumerRecord<String, String> record) {
            Map<String, String> headers = new LinkedHashMap<>();
            for (Header header : record.headers()) {
                headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
            return headers;
        }

        static String eventId(ConsumerRecord<String, String> record) {
            return of(record).get(Topics.HEADER_EVENT_ID);
        }
    }
}
