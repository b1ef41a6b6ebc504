package dev.payments.reconciliation;

import dev.payments.reconciliation.support.Security;
import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.contracts.RelayedGoldenEvents.Relayed;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import dev.payments.reconciliation.support.TestKafka;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.StreamSupport;

import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replay for incident recovery on a real broker: moving a consumer group's offsets back to a timestamp (this
 * service's own group is paused for it; another service's group must have no members), and the per-order dry run
 * that reads one order's events back with their original ids and tells, per consumer group, what a replay would do.
 * The other services' groups are stood in for by consumer groups whose offsets and dead letters the test sets.
 */
@TestPropertySource(properties = {
        "reconciliation.replay.consumers.[order.events]=payment-service-it,reconciliation-replay-it",
        "reconciliation.replay.consumers.[payment.events]="
        + "order-service-it,notification-service-it,audit-consumer-it,lagging-consumer-it,"
        + "reconciliation-replay-it"})
class ReplayIntegrationTest extends ReconciliationServiceTestBase {

    private static final String OWN_GROUP = "reconciliation-replay-it";

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_replay", OWN_GROUP, Set.of("payment-service-it", "order-service-it",
                "notification-service-it", "audit-consumer-it", "lagging-consumer-it"));
    }

    @Autowired
    MeterRegistry meters;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @Test
    void aDryRunShowsPerConsumerWhatReplayingOneOrderWouldDo() throws Exception {
        AnOrder order = anOrder();
        Relayed created = RelayedGoldenEvents.publish(order.created());
        Relayed pending = RelayedGoldenEvents.publish(order.pending());
        Relayed requested = RelayedGoldenEvents.publish(order.requested());
        Relayed approved = RelayedGoldenEvents.publish(order.approved("tx_1", Instant.now()));
        Relayed paid = RelayedGoldenEvents.publish(order.paid());
        api.awaitOrder(order, "PAID");

        // order-service has consumed all of payment.events, but dead-lettered the approval (its effect never happened).
        commit("order-service-it", Topics.PAYMENT_EVENTS, approved.partition(), approved.offset() + 1);
        RelayedGoldenEvents.send(Topics.deadLetter(Topics.PAYMENT_EVENTS, "order-service-it"), order.orderId.toString(),
                EventJson.write(approved.envelope()), approved.envelope().eventId(), "PaymentApproved");
        // payment-service has consumed order.events up to OrderCreated only (it lags).
        commit("payment-service-it", Topics.ORDER_EVENTS, created.partition(), created.offset() + 1);
        // notification-service has never committed.

        JsonNode report = api.operator(HttpMethod.GET, "/api/replay/orders/" + order.orderId, null).getBody();

        assertThat(report.path("events").asInt()).isEqualTo(5);
        assertThat(StreamSupport.stream(report.path("timeline").spliterator(), false)
                .map(e -> e.path("eventId").asText()))
                .as("the original event ids").containsExactlyInAnyOrder(
                        created.envelope().eventId().toString(), pending.envelope().eventId().toString(),
                        requested.envelope().eventId().toString(), approved.envelope().eventId().toString(),
                        paid.envelope().eventId().toString());
        assertThat(verdict(report, approved, OWN_GROUP)).isEqualTo("ALREADY_APPLIED");
        assertThat(verdict(report, created, OWN_GROUP)).isEqualTo("ALREADY_APPLIED");
        assertThat(verdict(report, requested, "order-service-it")).isEqualTo("CONSUMED");
        assertThat(verdict(report, approved, "order-service-it")).isEqualTo("DEAD_LETTERED");
        assertThat(verdict(report, approved, "notification-service-it")).isEqualTo("NO_COMMITTED_OFFSET");
        assertThat(verdict(report, created, "payment-service-it")).isEqualTo("CONSUMED");
        assertThat(verdict(report, pending, "payment-service-it")).isEqualTo("NOT_YET_CONSUMED");
        assertThat(verdict(report, paid, "payment-service-it")).isEqualTo("NOT_YET_CONSUMED");
        JsonNode event = event(report, approved);
        assertThat(event.path("topic").asText()).isEqualTo(Topics.PAYMENT_EVENTS);
        assertThat(event.path("offset").asLong()).isEqualTo(approved.offset());
        assertThat(event.path("type").asText()).isEqualTo("PaymentApproved");
        assertThat(consumer(report, approved, OWN_GROUP).path("wouldApply").asBoolean()).isFalse();
        assertThat(consumer(report, approved, "order-service-it").path("wouldApply").asBoolean()).isTrue();
    }

    @Test
    void replayingThisServicesGroupFromATimestampReDeliversEverythingAndChangesNothing() {
        Instant from = Instant.now().minusSeconds(1);
        AnOrder order = anOrder();
        RelayedGoldenEvents.publish(order.created());
        RelayedGoldenEvents.publish(order.requested());
        RelayedGoldenEvents.publish(order.pending());
        RelayedGoldenEvents.publish(order.approved("tx_2", Instant.now()));
        RelayedGoldenEvents.publish(order.paid());
        api.awaitOrder(order, "PAID");
        // The two topics are consumed independently: the order being PAID says nothing of the approval's arrival.
        api.awaitPayment(order, "APPROVED");
        JsonNode paymentBefore = api.get("/api/reconciliation/payments/" + order.paymentId);
        JsonNode orderBefore = api.get("/api/reconciliation/orders/" + order.orderId);
        double duplicatesBefore = duplicates();

        ResponseEntity<JsonNode> dryRun = api.operator(HttpMethod.POST, "/api/replay/offsets",
                Map.of("group", OWN_GROUP, "topic", Topics.PAYMENT_EVENTS, "from", from.toString()));
        assertThat(dryRun.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(dryRun.getBody().path("applied").asBoolean()).as("dry run unless said otherwise").isFalse();
        assertThat(dryRun.getBody().path("toReplay").asLong()).isGreaterThanOrEqualTo(2);
        assertThat(dryRun.getBody().path("partitions")).hasSize(TestKafka.PARTITIONS);

        for (String topic : List.of(Topics.PAYMENT_EVENTS, Topics.ORDER_EVENTS)) {
            ResponseEntity<JsonNode> applied = api.operator(HttpMethod.POST, "/api/replay/offsets",
                    Map.of("group", OWN_GROUP, "topic", topic, "from", from.toString(), "dryRun", false));
            assertThat(applied.getStatusCode()).isEqualTo(HttpStatus.OK);
            assertThat(applied.getBody().path("applied").asBoolean()).isTrue();
            assertThat(applied.getBody().path("requestedBy").asText()).as("the operator is the token's subject")
                    .isEqualTo("operator-1");
        }
        assertThat(listeners.getListenerContainers()).allMatch(MessageListenerContainer::isRunning);

        await().atMost(EVENTUALLY).until(() -> duplicates() - duplicatesBefore >= 5);
        assertThat(api.get("/api/reconciliation/payments/" + order.paymentId)).isEqualTo(paymentBefore);
        assertThat(api.get("/api/reconciliation/orders/" + order.orderId)).isEqualTo(orderBefore);

        // The listeners took up where they were: a new event is still applied.
        AnOrder next = anOrder();
        RelayedGoldenEvents.publish(next.created());
        api.awaitOrder(next, "CREATED");
    }

    @Test
    void anotherServicesGroupIsMovedOnlyWhileItHasNoMembers() throws Exception {
        AtomicBoolean polling = new AtomicBoolean(true);
        AtomicBoolean assigned = new AtomicBoolean();
        Thread member = new Thread(() -> {
            Map<String, Object> client = SharedTestInfrastructure.kafkaClientProperties();
            client.put(ConsumerConfig.GROUP_ID_CONFIG, "audit-consumer-it");
            client.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(client, new StringDeserializer(),
                    new StringDeserializer())) {
                consumer.subscribe(List.of(Topics.PAYMENT_EVENTS));
                while (polling.get()) {
                    consumer.poll(Duration.ofMillis(100));
                    assigned.set(!consumer.assignment().isEmpty());
                }
            }
        }, "audit-consumer-it");
        member.start();
        await().atMost(EVENTUALLY).untilTrue(assigned);
        Map<String, Object> request = Map.of("group", "audit-consumer-it", "topic", Topics.PAYMENT_EVENTS,
                "from", Instant.now().minus(Duration.ofHours(1)).toString(), "dryRun", false);

        ResponseEntity<JsonNode> refused = api.operator(HttpMethod.POST, "/api/replay/offsets", request);
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(refused.getBody().path("code").asText()).isEqualTo("CONSUMER_GROUP_ACTIVE");
        assertThat(refused.getBody().path("members").asInt()).isEqualTo(1);
        assertThat(refused.getBody().path("detail").asText()).contains("stop");

        polling.set(false);
        member.join();
        ResponseEntity<JsonNode> moved = api.operator(HttpMethod.POST, "/api/replay/offsets", request);
        assertThat(moved.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(moved.getBody().path("applied").asBoolean()).isTrue();
        try (Admin admin = TestKafka.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("audit-consumer-it")
                    .partitionsToOffsetAndMetadata().get();
            for (JsonNode partition : moved.getBody().path("partitions")) {
                assertThat(committed.get(new TopicPartition(Topics.PAYMENT_EVENTS, partition.path("partition").asInt()))
                        .offset()).isEqualTo(partition.path("target").asLong());
            }
        }

        ResponseEntity<JsonNode> unknown = api.operator(HttpMethod.POST, "/api/replay/offsets",
                Map.of("group", "order-servcie", "topic", Topics.PAYMENT_EVENTS, "from", Instant.now().toString()));
        assertThat(unknown.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(unknown.getBody().path("code").asText()).isEqualTo("UNKNOWN_CONSUMER_GROUP");
        org.springframework.http.HttpHeaders anonymous = new org.springframework.http.HttpHeaders();
        anonymous.set(Security.ANONYMOUS, "true");
        ResponseEntity<JsonNode> noToken = http.exchange("/api/replay/offsets", HttpMethod.POST,
                new org.springframework.http.HttpEntity<>(request, anonymous), JsonNode.class);
        assertThat(noToken.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(noToken.getBody().path("code").asText()).isEqualTo("UNAUTHENTICATED");
    }

    @Test
    void aReplayThatWouldMoveAGroupPastEventsItHasNotConsumedIsRefusedAndMovesNothing() throws Exception {
        String group = "lagging-consumer-it";
        Instant beforeTheOrder = Instant.now().minusSeconds(1);
        AnOrder order = anOrder();
        Relayed requested = RelayedGoldenEvents.publish(order.requested());
        RelayedGoldenEvents.publish(order.approved("tx_4", Instant.now()));
        // The group has consumed everything but this order's two payment events (same key, same partition).
        commitAtEnd(group, Topics.PAYMENT_EVENTS);
        commit(group, Topics.PAYMENT_EVENTS, requested.partition(), requested.offset());
        Map<TopicPartition, OffsetAndMetadata> before = committed(group);
        Instant later = Instant.now().plusSeconds(60);

        for (boolean dryRun : List.of(true, false)) {
            ResponseEntity<JsonNode> refused = api.operator(HttpMethod.POST, "/api/replay/offsets",
                    Map.of("group", group, "topic", Topics.PAYMENT_EVENTS, "from", later.toString(), "dryRun", dryRun));

            assertThat(refused.getStatusCode()).as("dry run %s: %s", dryRun, refused.getBody())
                    .isEqualTo(HttpStatus.CONFLICT);
            assertThat(refused.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
            assertThat(refused.getBody().path("code").asText()).isEqualTo("REPLAY_WOULD_SKIP_EVENTS");
            assertThat(refused.getBody().path("skipped").asLong()).isEqualTo(2);
            assertThat(refused.getBody().path("detail").asText()).contains("partition " + requested.partition());
            JsonNode partition = StreamSupport.stream(refused.getBody().path("partitions").spliterator(), false)
                    .filter(p -> p.path("partition").asInt() == requested.partition()).findFirst().orElseThrow();
            assertThat(partition.path("committed").asLong()).isEqualTo(requested.offset());
            assertThat(partition.path("skipped").asLong()).isEqualTo(2);
        }
        assertThat(committed(group)).as("nothing moved").isEqualTo(before);

        ResponseEntity<JsonNode> back = api.operator(HttpMethod.POST, "/api/replay/offsets",
                Map.of("group", group, "topic", Topics.PAYMENT_EVENTS, "from", beforeTheOrder.toString(),
                        "dryRun", false));
        assertThat(back.getStatusCode()).as("%s", back.getBody()).isEqualTo(HttpStatus.OK);
        assertThat(back.getBody().path("applied").asBoolean()).isTrue();
        assertThat(committed(group).get(new TopicPartition(Topics.PAYMENT_EVENTS, requested.partition())).offset())
                .as("moved back, not forward").isLessThanOrEqualTo(requested.offset());
    }

    // --- helpers

    private static void commitAtEnd(String group, String topic) throws Exception {
        try (Admin admin = TestKafka.admin()) {
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < TestKafka.PARTITIONS; p++) {
                latest.put(new TopicPartition(topic, p), org.apache.kafka.clients.admin.OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            admin.listOffsets(latest).all().get()
                    .forEach((tp, info) -> offsets.put(tp, new OffsetAndMetadata(info.offset())));
            admin.alterConsumerGroupOffsets(group, offsets).all().get();
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        try (Admin admin = TestKafka.admin()) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        }
    }

    private static void commit(String group, String topic, int partition, long offset) throws Exception {
        try (Admin admin = TestKafka.admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            offsets.put(new TopicPartition(topic, partition), new OffsetAndMetadata(offset));
            admin.alterConsumerGroupOffsets(group, offsets).all().get();
        }
    }

    private static JsonNode event(JsonNode report, Relayed published) {
        return StreamSupport.stream(report.path("timeline").spliterator(), false)
                .filter(e -> e.path("eventId").asText().equals(published.envelope().eventId().toString()))
                .findFirst().orElseThrow();
    }

    private static JsonNode consumer(JsonNode report, Relayed published, String group) {
        return StreamSupport.stream(event(report, published).path("consumers").spliterator(), false)
                .filter(c -> c.path("group").asText().equals(group)).findFirst()
                .orElseThrow(() -> new AssertionError("no verdict of " + group));
    }

    private static String verdict(JsonNode report, Relayed published, String group) {
        return consumer(report, published, group).path("verdict").asText();
    }

    private double duplicates() {
        return meters.find("inbox.events").tag("outcome", "duplicate").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

}
