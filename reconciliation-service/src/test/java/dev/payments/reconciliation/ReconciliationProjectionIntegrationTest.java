package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.testsupport.infra.CommittedApiDocument;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.reconciliation.support.Prometheus;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.payments.contracts.GoldenEvents.ORDER_ID;
import static dev.payments.contracts.GoldenEvents.PAYMENT_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * reconciliation-service on real PostgreSQL and Kafka: events produced onto both topics as the outbox relay would
 * (key = order id, headers {@code id} and {@code eventType}), and what an operator then reads over HTTP.
 */
class ReconciliationProjectionIntegrationTest extends ReconciliationServiceTestBase {

    private static final String DEAD_LETTERS = Topics.deadLetter(Topics.PAYMENT_EVENTS, "reconciliation-service");

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        // It keeps the production consumer group and thus the production DLT name; started at the topics' end, so
        // the summary deltas below are this class's events only.
        register(registry, "reconciliation", "reconciliation-service");
    }

    @Autowired
    MeterRegistry meters;

    @Test
    void theGoldenHappyPathBecomesAnApprovedPaymentAndAPaidOrderEvenWhenPaymentsArriveFirst() {
        JsonNode before = summary();

        // payment.events ahead of order.events: the two topics are independent
        sendGolden(EventType.PAYMENT_REQUESTED);
        sendGolden(EventType.PAYMENT_APPROVED);
        sendGolden(EventType.ORDER_CREATED);
        sendGolden(EventType.ORDER_PAYMENT_PENDING);
        sendGolden(EventType.ORDER_PAID);

        JsonNode order = await().atMost(EVENTUALLY).until(() -> get("/orders/" + ORDER_ID),
                o -> o.path("status").asText().equals("PAID") && o.path("history").size() == 5);
        assertThat(order.path("memberId").asText()).isEqualTo(GoldenEvents.MEMBER_ID);
        assertThat(order.path("amount").asLong()).isEqualTo(GoldenEvents.AMOUNT);
        assertThat(order.path("currency").asText()).isEqualTo(GoldenEvents.CURRENCY);
        assertThat(order.path("orderName").asText()).isEqualTo("Annual plan");
        assertThat(order.path("paymentId").asText()).isEqualTo(PAYMENT_ID.toString());
        assertThat(order.path("payments")).singleElement().satisfies(p -> {
            assertThat(p.path("status").asText()).isEqualTo("APPROVED");
            assertThat(p.path("pgTransactionKey").asText()).isEqualTo("txn_0001");
        });

        JsonNode payment = get("/payments/" + PAYMENT_ID);
        assertThat(payment.path("status").asText()).isEqualTo("APPROVED");
        assertThat(payment.path("orderId").asText()).isEqualTo(ORDER_ID.toString());
        assertThat(payment.path("memberId").asText()).isEqualTo(GoldenEvents.MEMBER_ID);
        assertThat(payment.path("amount").asLong()).isEqualTo(GoldenEvents.AMOUNT);
        assertThat(payment.path("pgTransactionKey").asText()).isEqualTo("txn_0001");
        assertThat(payment.path("lastEventType").asText()).isEqualTo("PaymentApproved");
        assertThat(payment.path("lastEventAt").asText()).isEqualTo("2026-11-29T07:50:00Z");
        assertThat(payment.path("firstSeenAt").isTextual()).isTrue();
        assertThat(payment.path("eventsApplied").asInt()).isEqualTo(2);
        assertThat(payment.path("history")).extracting(e -> e.path("type").asText())
                .containsExactlyInAnyOrder("PaymentRequested", "PaymentApproved");

        JsonNode after = summary();
        assertThat(delta(before, after, "approvals")).isEqualTo(1);
        assertThat(delta(before, after, "paidOrders")).isEqualTo(1);
        assertThat(delta(before, after, "cancellations")).isZero();
        assertThat(delta(before, after, "unresolved")).isZero();
        assertThat(after.at("/payments/byStatus/APPROVED").asLong() - before.at("/payments/byStatus/APPROVED").asLong())
                .isEqualTo(1);
        assertThat(after.at("/orders/byStatus/PAID").asLong() - before.at("/orders/byStatus/PAID").asLong())
                .isEqualTo(1);
    }

    @Test
    void theSameEventTwiceIsCountedOnce() {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();
        UUID eventId = UUID.randomUUID();
        double duplicatesBefore = duplicates("PaymentApproved");
        JsonNode before = summary();

        RelayedGoldenEvents.publish(EventType.PAYMENT_APPROVED, orderId, paymentId, eventId);
        RelayedGoldenEvents.publish(EventType.PAYMENT_APPROVED, orderId, paymentId, eventId);

        await().atMost(EVENTUALLY).until(() -> duplicates("PaymentApproved") > duplicatesBefore);
        JsonNode payment = get("/payments/" + paymentId);
        assertThat(payment.path("status").asText()).isEqualTo("APPROVED");
        assertThat(payment.path("eventsApplied").asInt()).isEqualTo(1);
        assertThat(payment.path("history")).hasSize(1);
        assertThat(delta(before, summary(), "approvals")).isEqualTo(1);
    }

    @Test
    void lateEventsNeverTakeAPaymentBackButStillAddWhatTheyKnow() {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();

        // Same key, same partition: they arrive in exactly this (reversed) order.
        RelayedGoldenEvents.publish(EventType.PAYMENT_CANCELED, orderId, paymentId, UUID.randomUUID());
        RelayedGoldenEvents.publish(EventType.PAYMENT_APPROVED, orderId, paymentId, UUID.randomUUID());
        RelayedGoldenEvents.publish(EventType.PAYMENT_REQUESTED, orderId, paymentId, UUID.randomUUID());

        JsonNode payment = await().atMost(EVENTUALLY).until(() -> get("/payments/" + paymentId),
                p -> p.path("eventsApplied").asInt() == 3);
        assertThat(payment.path("status").asText()).isEqualTo("CANCELED");
        assertThat(payment.path("lastEventType").asText()).isEqualTo("PaymentCanceled");
        assertThat(payment.path("statusReason").asText()).isEqualTo("COMPENSATION");
        assertThat(payment.path("pgTransactionKey").asText()).as("merged from the late approval").isEqualTo("txn_0001");
        assertThat(payment.path("approvedAt").asText()).isEqualTo("2026-11-29T07:50:00Z");
        assertThat(payment.path("history")).extracting(e -> e.path("effect").asText())
                .containsExactlyInAnyOrder("CREATED", "STALE", "STALE");

        JsonNode order = get("/orders/" + orderId);
        assertThat(order.path("status").isNull()).as("no order event seen").isTrue();
        assertThat(order.path("payments")).singleElement()
                .satisfies(p -> assertThat(p.path("status").asText()).isEqualTo("CANCELED"));
    }

    @Test
    void anUnknownEventTypeAndANonEnvelopeGoToTheDeadLetterTopicAndTheNextEventIsStillProjected() {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();
        UUID poisonId = UUID.randomUUID();
        String unknownType = GoldenEvents.json(EventType.PAYMENT_APPROVED, orderId, paymentId, poisonId, GoldenEvents.MEMBER_ID)
                .replace("\"PaymentApproved\"", "\"PaymentRefunded\"");
        String notAnEnvelope = "{\"hello\":\"world\"}";

        RelayedGoldenEvents.send(Topics.PAYMENT_EVENTS, orderId.toString(), unknownType, poisonId, "PaymentRefunded");
        RelayedGoldenEvents.send(Topics.PAYMENT_EVENTS, orderId.toString(), notAnEnvelope, UUID.randomUUID(),
                "PaymentApproved");
        RelayedGoldenEvents.publish(EventType.PAYMENT_REQUESTED, orderId, paymentId, UUID.randomUUID());

        await().atMost(EVENTUALLY).until(() -> get("/payments/" + paymentId),
                p -> p.path("status").asText().equals("REQUESTED"));
        assertThat(readDeadLetters(orderId.toString(), 2)).extracting(ConsumerRecord::value)
                .containsExactly(unknownType, notAnEnvelope);
        JsonNode payment = get("/payments/" + paymentId);
        assertThat(payment.path("eventsApplied").asInt()).as("neither poison message touched the view").isEqualTo(1);
        assertThat(payment.path("history")).hasSize(1);
    }

    @Test
    void unknownIdsAndMalformedIdsAreProblemsWithAStableCode() {
        ResponseEntity<JsonNode> payment = http.getForEntity(api("/payments/" + UUID.randomUUID()), JsonNode.class);
        assertThat(payment.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(payment.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(payment.getBody().path("code").asText()).isEqualTo("PAYMENT_NOT_FOUND");
        assertThat(payment.getBody().path("status").asInt()).isEqualTo(404);

        ResponseEntity<JsonNode> order = http.getForEntity(api("/orders/" + UUID.randomUUID()), JsonNode.class);
        assertThat(order.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(order.getBody().path("code").asText()).isEqualTo("ORDER_NOT_FOUND");

        ResponseEntity<JsonNode> malformed = http.getForEntity(api("/payments/not-a-uuid"), JsonNode.class);
        assertThat(malformed.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(malformed.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(malformed.getBody().path("code").asText()).isEqualTo("VALIDATION_FAILED");
        assertThat(malformed.getBody().path("detail").asText()).contains("paymentId");
    }

    @Test
    void probesAndMetricsAreExposedOnTheManagementPortOnly() {
        ResponseEntity<JsonNode> onApiPort = http.getForEntity("/actuator/health", JsonNode.class);
        assertThat(onApiPort.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(onApiPort.getBody().path("code").asText()).isEqualTo("NOT_FOUND");
        assertThat(management.getForEntity("/actuator/health/readiness", JsonNode.class).getBody().path("status")
                .asText()).isEqualTo("UP");
        assertThat(management.getForEntity("/actuator/health/liveness", JsonNode.class).getBody().path("status")
                .asText())
                .isEqualTo("UP");
        RelayedGoldenEvents.publish(EventType.PAYMENT_UNKNOWN, UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
        await().atMost(EVENTUALLY).until(() -> management.getForObject("/actuator/prometheus", String.class),
                text -> text.contains(Prometheus.series("reconciliation_projection_events_total{effect=\"created\",type=\"PaymentUnknown\"}")));
    }

    private JsonNode summary() {
        return get("/summary");
    }

    private static long delta(JsonNode before, JsonNode after, String field) {
        return after.path(field).asLong() - before.path(field).asLong();
    }

    /** The view's JSON, or a missing node while it is not there yet. */
    private JsonNode get(String path) {
        ResponseEntity<JsonNode> response = http.getForEntity(api(path), JsonNode.class);
        return response.getStatusCode().is2xxSuccessful() ? response.getBody() : MissingNode.getInstance();
    }

    private static String api(String path) {
        return "/api/reconciliation" + path;
    }

    private double duplicates(String type) {
        Counter counter = meters.find("inbox.events").tag("outcome", "duplicate").tag("type", type).counter();
        return counter == null ? 0 : counter.count();
    }

    private static void sendGolden(EventType type) {
        RelayedGoldenEvents.publish(type, ORDER_ID, PAYMENT_ID, GoldenEvents.eventId(type));
    }

    /** The dead-letter records of one key, read by a plain consumer as an operator would. */
    private static List<ConsumerRecord<String, String>> readDeadLetters(String key, int expected) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        Map<String, Object> client = SharedTestInfrastructure.kafkaClientProperties();
        client.put(ConsumerConfig.GROUP_ID_CONFIG, "dlt-reader-" + UUID.randomUUID());
        client.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        client.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(client, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(DEAD_LETTERS));
            await().atMost(EVENTUALLY).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    if (key.equals(record.key())) {
                        found.add(record);
                    }
                });
                return found.size() >= expected;
            });
        }
        return found;
    }


    @Test
    void theServedOpenApiDocumentIsTheCommittedOne() {
        CommittedApiDocument.assertServedIsCommitted("reconciliation-service", port);
    }
}
