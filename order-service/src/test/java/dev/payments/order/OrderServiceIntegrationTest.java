package dev.payments.order;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.Topics;
import dev.payments.order.support.Infrastructure;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.CommittedApiDocument;
import dev.payments.testsupport.infra.TestTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.payments.contracts.RelayedGoldenEvents.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * order-service on real PostgreSQL (logical replication), the Debezium outbox relay and Kafka: what a client sees over
 * HTTP, and what other services see on {@code order.events}.
 */
@ActiveProfiles("local")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
// Close the application (relay, listeners) while Kafka and PostgreSQL still run; their JVM shutdown hooks would
// otherwise race it and the relay's stop would wait for a broker that is already gone.
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OrderServiceIntegrationTest {

    private static final Duration EVENTUALLY = Duration.ofSeconds(20);
    private static final TestTopic ORDER_EVENTS = TestTopic.named(Topics.ORDER_EVENTS);

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        Infrastructure.register(registry);
    }

    @Autowired
    TestRestTemplate http;

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    /** order-service in production; the shared test infrastructure may give each test context its own group. */
    @Value("${spring.kafka.consumer.group-id}")
    String consumerGroup;

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void placingAnOrderAnswers201AndPublishesOrderCreated() throws Exception {
        ResponseEntity<String> response = post("""
                {"amount":15000,"currency":"KRW","orderName":"Annual plan"}""");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        JsonNode body = json.readTree(response.getBody());
        String orderId = body.get("orderId").asText();
        assertThat(response.getHeaders().getLocation()).hasPath("/api/orders/" + orderId);
        assertThat(body.get("memberId").asText()).isEqualTo("member-1");
        assertThat(body.get("amount").asLong()).isEqualTo(15000);
        assertThat(body.get("currency").asText()).isEqualTo("KRW");
        assertThat(body.get("orderName").asText()).isEqualTo("Annual plan");
        assertThat(body.get("status").asText()).isEqualTo("CREATED");
        assertThat(body.get("paymentId").isNull()).isTrue();

        JsonNode fetched = json.readTree(get(response.getHeaders().getLocation().getPath(), memberToken()).getBody());
        assertThat(fetched.get("status").asText()).isEqualTo("CREATED");
        assertThat(fetched.get("updatedAt").asText()).isNotBlank();

        List<ConsumerRecord<String, String>> published = awaitOrderEvents(orderId, 1);
        assertPublishedAsContract(published.get(0), orderId, EventType.ORDER_CREATED);
        JsonNode payload = json.readTree(published.get(0).value()).get("payload");
        assertThat(payload.get("amount").asLong()).isEqualTo(15000);
        assertThat(payload.get("memberId").asText()).isEqualTo("member-1");
    }

    @Test
    void anApprovedPaymentPaysTheOrderOnceEvenWhenDeliveredTwiceAndACancelRefundsIt() throws Exception {
        UUID orderId = placeOrder();
        UUID paymentId = UUID.randomUUID();

        publish(EventType.PAYMENT_REQUESTED, orderId, paymentId);
        awaitStatus(orderId, "PAYMENT_PENDING");
        assertThat(order(orderId).get("paymentId").asText()).isEqualTo(paymentId.toString());

        UUID approval = publish(EventType.PAYMENT_APPROVED, orderId, paymentId);
        awaitStatus(orderId, "PAID");
        publish(EventType.PAYMENT_APPROVED, orderId, paymentId, approval);          // redelivery: inbox drops it
        publish(EventType.PAYMENT_APPROVED, orderId, paymentId);                    // same outcome, new id: domain no-op
        publish(EventType.PAYMENT_CANCELED, orderId, paymentId);                    // same partition, processed after
        awaitStatus(orderId, "CANCELED");
        assertThat(order(orderId).get("statusReason").asText()).isEqualTo("COMPENSATION");

        List<ConsumerRecord<String, String>> published = awaitOrderEvents(orderId.toString(), 4);
        assertThat(ORDER_EVENTS.readAll(r -> r.key().equals(orderId.toString())))
                .extracting(r -> TestTopic.header(r, Topics.HEADER_EVENT_TYPE))
                .containsExactly("OrderCreated", "OrderPaymentPending", "OrderPaid", "OrderCanceled");
        assertPublishedAsContract(published.get(1), orderId.toString(), EventType.ORDER_PAYMENT_PENDING);
        assertPublishedAsContract(published.get(2), orderId.toString(), EventType.ORDER_PAID);
        assertPublishedAsContract(published.get(3), orderId.toString(), EventType.ORDER_CANCELED);
        assertThat(jdbc.sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", approval)
                .query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    void refundsMoveThePaidOrderToPartiallyRefundedThenRefundedAndARedeliveredRefundChangesNothing() throws Exception {
        UUID orderId = placeOrder();
        UUID paymentId = UUID.randomUUID();
        publish(EventType.PAYMENT_REQUESTED, orderId, paymentId);
        publish(EventType.PAYMENT_APPROVED, orderId, paymentId);
        awaitStatus(orderId, "PAID");
        assertThat(order(orderId).path("refundedAmount").asLong()).isZero();

        // The golden refund: 4,000 of the 15,000 paid, the payment's refunds now 4,000 in all.
        UUID firstRefund = publish(EventType.REFUND_SUCCEEDED, orderId, paymentId);
        awaitStatus(orderId, "PARTIALLY_REFUNDED");
        assertThat(order(orderId).get("refundedAmount").asLong()).isEqualTo(4_000);
        publish(EventType.REFUND_SUCCEEDED, orderId, paymentId, firstRefund);      // redelivery: inbox drops it
        publish(EventType.REFUND_SUCCEEDED, orderId, paymentId);                   // same refund, new id: domain no-op
        publish(new RefundSucceeded(UUID.randomUUID(), paymentId, orderId, GoldenEvents.MEMBER_ID, 11_000, "KRW",
                15_000, 15_000, "txn-rest", Instant.now(), PaymentPurpose.ORDER));  // the rest, same partition, after
        awaitStatus(orderId, "REFUNDED");
        JsonNode refunded = order(orderId);
        assertThat(refunded.get("refundedAmount").asLong()).isEqualTo(15_000);
        assertThat(refunded.get("amount").asLong()).isEqualTo(15_000);
        assertThat(refunded.get("paymentId").asText()).isEqualTo(paymentId.toString());

        List<ConsumerRecord<String, String>> published = awaitOrderEvents(orderId.toString(), 5);
        assertThat(ORDER_EVENTS.readAll(r -> r.key().equals(orderId.toString())))
                .extracting(r -> TestTopic.header(r, Topics.HEADER_EVENT_TYPE))
                .containsExactly("OrderCreated", "OrderPaymentPending", "OrderPaid", "OrderPartiallyRefunded",
                        "OrderRefunded");
        assertPublishedAsContract(published.get(3), orderId.toString(), EventType.ORDER_PARTIALLY_REFUNDED);
        assertPublishedAsContract(published.get(4), orderId.toString(), EventType.ORDER_REFUNDED);
        JsonNode partly = json.readTree(published.get(3).value()).get("payload");
        assertThat(partly.get("refundedAmount").asLong()).isEqualTo(4_000);
        assertThat(partly.get("orderAmount").asLong()).isEqualTo(15_000);
        assertThat(json.readTree(published.get(4).value()).get("payload").get("refundedAmount").asLong())
                .isEqualTo(15_000);
        assertThat(jdbc.sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", firstRefund)
                .query(Integer.class).single()).isEqualTo(1);
    }

    @Test
    void aDeclinedCustomerRetriesWithANewPaymentAndAnUnknownOutcomeNeverFailsTheOrder() throws Exception {
        UUID orderId = placeOrder();
        UUID declined = UUID.randomUUID();
        publish(EventType.PAYMENT_REQUESTED, orderId, declined);
        publish(EventType.PAYMENT_DECLINED, orderId, declined);
        awaitStatus(orderId, "FAILED");
        assertThat(order(orderId).get("statusReason").asText()).isEqualTo("PAYMENT_DECLINED");

        UUID retry = UUID.randomUUID();
        publish(EventType.PAYMENT_REQUESTED, orderId, retry);
        publish(EventType.PAYMENT_UNKNOWN, orderId, retry);
        awaitPaymentId(orderId, retry);
        // Still waiting: money may have moved, so UNKNOWN must not finish the order either way.
        publish(EventType.PAYMENT_CANCELED, orderId, retry);
        awaitStatus(orderId, "FAILED");
        assertThat(order(orderId).get("statusReason").asText()).isEqualTo("PAYMENT_CANCELED");

        awaitOrderEvents(orderId.toString(), 5);
        assertThat(ORDER_EVENTS.readAll(r -> r.key().equals(orderId.toString())))
                .extracting(r -> TestTopic.header(r, Topics.HEADER_EVENT_TYPE))
                .containsExactly("OrderCreated", "OrderPaymentPending", "OrderFailed", "OrderPaymentPending",
                        "OrderFailed");
    }

    @Test
    void poisonMessagesLandOnTheDeadLetterTopicAndTheConsumerMovesOn() throws Exception {
        UUID unknownOrder = UUID.randomUUID();
        UUID forUnknownOrder = publish(EventType.PAYMENT_APPROVED, unknownOrder, UUID.randomUUID());
        TestTopic.named(Topics.PAYMENT_EVENTS).send("not-an-order", "this is not an event", Map.of());
        String unknownType = GoldenEvents.json(EventType.PAYMENT_APPROVED, UUID.randomUUID(), UUID.randomUUID(),
                        UUID.randomUUID(), GoldenEvents.MEMBER_ID).replace("\"PaymentApproved\"", "\"PaymentRefunded\"");
        TestTopic.named(Topics.PAYMENT_EVENTS).send("unknown-type", unknownType, Map.of());

        TestTopic deadLetters = TestTopic.named(Topics.deadLetter(Topics.PAYMENT_EVENTS, consumerGroup));
        List<ConsumerRecord<String, String>> parked = deadLetters.read(r -> r.key() != null
                && (r.key().equals(unknownOrder.toString()) || r.key().equals("not-an-order")
                || r.key().equals("unknown-type")), 3, EVENTUALLY);
        assertThat(parked).extracting(ConsumerRecord::key)
                .containsExactlyInAnyOrder(unknownOrder.toString(), "not-an-order", "unknown-type");
        ConsumerRecord<String, String> approval = parked.stream()
                .filter(r -> r.key().equals(unknownOrder.toString())).findFirst().orElseThrow();
        assertThat(EventJson.read(approval.value()).eventId()).isEqualTo(forUnknownOrder);
        assertThat(TestTopic.header(approval, "kafka_dlt-exception-message")).contains("No order " + unknownOrder);
        // An order this service does not have is never coming: parked at once, without the retries a bug gets.
        assertThat(http.getForObject("http://127.0.0.1:" + managementPort + "/actuator/prometheus", String.class)).contains(
                "inbox_dead_letters_total{application=\"order-service\",kind=\"permanent\",topic=\"payment.events\"} 3.0");
        assertThat(jdbc.sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", forUnknownOrder)
                .query(Integer.class).single()).as("a failed effect leaves no inbox row").isZero();

        UUID orderId = placeOrder();
        publish(EventType.PAYMENT_REQUESTED, orderId, UUID.randomUUID());
        awaitStatus(orderId, "PAYMENT_PENDING");
    }

    @Test
    void aRenewalChargesEventsAreNoOrdersBusinessAndAreNeverDeadLettered() throws Exception {
        // A renewal attempt's order id is its id at the PG: this service has no order for it (docs/renewals.md).
        UUID attempt = UUID.randomUUID();
        UUID approved = UUID.randomUUID();
        UUID declined = UUID.randomUUID();
        UUID unknown = UUID.randomUUID();
        List<PaymentEvent> renewals = List.of(
                new PaymentRequested(approved, attempt, "member-renewal", 9_900, "KRW", "bill_" + attempt,
                        PaymentPurpose.RENEWAL),
                new PaymentApproved(approved, attempt, "member-renewal", 9_900, "KRW", "txn-renewal", Instant.now(),
                        PaymentPurpose.RENEWAL),
                new PaymentDeclined(declined, attempt, "member-renewal", 9_900, "KRW", "REJECT_CARD_COMPANY",
                        "declined", PaymentPurpose.RENEWAL),
                new PaymentUnknown(unknown, attempt, "member-renewal", 9_900, "KRW", "PG_ANSWER_LOST",
                        PaymentPurpose.RENEWAL));
        List<UUID> eventIds = renewals.stream().map(event -> publish(event).envelope().eventId()).toList();

        // Passed over by rule: counted as ignored, without a transaction (no inbox row), none parked, no order made.
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(ignoredEvents()).isEqualTo(renewals.size()));
        assertThat(jdbc.sql("SELECT count(*) FROM inbox WHERE event_id IN (:ids)").param("ids", eventIds)
                .query(Integer.class).single()).as("no transaction for an event ignored by rule").isZero();
        assertThat(TestTopic.named(Topics.deadLetter(Topics.PAYMENT_EVENTS, consumerGroup))
                .readAll(r -> attempt.toString().equals(r.key()))).isEmpty();
        assertThat(jdbc.sql("SELECT count(*) FROM orders WHERE id = :id").param("id", attempt)
                .query(Integer.class).single()).isZero();
        assertThat(ORDER_EVENTS.readAll(r -> attempt.toString().equals(r.key()))).isEmpty();
    }

    /** {@code inbox_events_total{outcome="ignored"}} over every event type. */
    private double ignoredEvents() {
        String text = http.getForObject("http://127.0.0.1:" + managementPort + "/actuator/prometheus", String.class);
        return text.lines().filter(line -> line.startsWith("inbox_events_total{") && line.contains("outcome=\"ignored\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void badInputIsRefusedAsProblemJsonAndChangesNothing() throws Exception {
        long ordersBefore = count("orders");
        long outboxBefore = count("outbox");

        assertProblem(post("{\"amount\":"), 400, "MALFORMED_REQUEST");
        assertProblem(post("""
                {"amount":15000.5,"currency":"KRW","orderName":"Annual plan"}"""),
                400, "MALFORMED_REQUEST");
        JsonNode invalid = assertProblem(post("""
                {"amount":-5,"currency":"won","orderName":"Annual plan"}"""), 400, "VALIDATION_FAILED");
        assertThat(invalid.get("errors").findValuesAsText("field"))
                .containsExactlyInAnyOrder("amount", "currency");
        assertProblem(post("""
                {"amount":15000,"currency":"XYZ","orderName":"Annual plan"}"""),
                400, "VALIDATION_FAILED");
        assertProblem(post("{}"), 400, "VALIDATION_FAILED");
        assertProblem(get("/api/orders/" + UUID.randomUUID(), memberToken()), 404, "ORDER_NOT_FOUND");
        assertProblem(get("/api/orders/not-a-uuid", memberToken()), 400, "VALIDATION_FAILED");

        assertThat(count("orders")).isEqualTo(ordersBefore);
        assertThat(count("outbox")).isEqualTo(outboxBefore);
    }

    @Test
    void anOrderIsItsMembersAloneAndTheMemberIsTheTokensSubjectNeverTheBody() throws Exception {
        ResponseEntity<String> placed = post("""
                {"memberId":"member-2","amount":15000,"currency":"KRW","orderName":"Annual plan"}""");
        assertThat(placed.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        UUID orderId = UUID.fromString(json.readTree(placed.getBody()).get("orderId").asText());
        assertThat(order(orderId).get("memberId").asText()).as("a memberId in the body is ignored").isEqualTo("member-1");
        long ordersBefore = count("orders");

        assertProblem(get("/api/orders/" + orderId, AuthServer.shared().member("member-2")), 404, "ORDER_NOT_FOUND");
        assertProblem(get("/api/orders/" + orderId, null), 401, "UNAUTHENTICATED");
        assertProblem(get("/api/orders/" + orderId, AuthServer.shared().token("member-1").scopes("member")
                .audience("another-api").sign()), 401, "INVALID_TOKEN");
        assertProblem(post("""
                {"amount":15000,"currency":"KRW","orderName":"Annual plan"}""", null), 401, "UNAUTHENTICATED");
        assertProblem(post("""
                {"amount":15000,"currency":"KRW","orderName":"Annual plan"}""",
                AuthServer.shared().operator("operator-1", "payments:sync")), 403, "INSUFFICIENT_SCOPE");
        assertThat(count("orders")).isEqualTo(ordersBefore);
    }

    @Test
    void operatorsSeeHealthAndMetricsOnTheManagementPortOnly() throws Exception {
        String management = "http://127.0.0.1:" + managementPort;
        ResponseEntity<String> health = http.getForEntity(management + "/actuator/health/readiness", String.class);
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(health.getBody()).contains("UP");
        // The API port serves only the API: even for a caller with a valid token actuator is an unknown path.
        assertProblem(get("/actuator/prometheus", memberToken()), 404, "NOT_FOUND");
        ResponseEntity<String> metrics = http.getForEntity(management + "/actuator/prometheus", String.class);
        assertThat(metrics.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(metrics.getBody()).contains("outbox_relay_active");
        // At 0 from the start, so the first failure is an increase Prometheus sees (seed 000).
        assertThat(metrics.getBody()).contains(
                "inbox_consumer_failures_total{application=\"order-service\",kind=\"transient\",topic=\"payment.events\"}",
                "inbox_dead_letters_total{application=\"order-service\",kind=\"unclassified\",topic=\"payment.events\"}",
                "inbox_listeners_paused{application=\"order-service\"} 0.0");
        assertThat(metrics.getBody()).contains(
                "outbox_slot_lost_total{application=\"order-service\",slot=\"outbox_",
                "outbox_relay_fallbacks_total{application=\"order-service\",reason=\"slot_lost\"");
    }

    @Test
    void aDeadRelayRestartsThePodAndPublishingHasItsOwnProbe() throws Exception {
        // The relay is in the liveness group: an orchestrator restarts a pod whose relay thread died.
        JsonNode liveness = json.readTree(http.getForEntity(management("/actuator/health/liveness"), String.class)
                .getBody());
        assertThat(liveness.path("status").asText()).isEqualTo("UP");
        assertThat(liveness.path("components").path("outboxRelay").path("status").asText()).isEqualTo("UP");
        // Publishing is its own group, not readiness: a lost slot must not take the pod out of traffic.
        await().atMost(EVENTUALLY).untilAsserted(() -> {
            JsonNode publishing = json.readTree(http.getForEntity(management("/actuator/health/publishing"),
                    String.class).getBody());
            assertThat(publishing.path("status").asText()).isEqualTo("UP");
            assertThat(publishing.path("components").path("outboxPublishing").path("details").path("publisher").asText())
                    .isEqualTo("debezium");
        });
        JsonNode readiness = json.readTree(http.getForEntity(management("/actuator/health/readiness"), String.class)
                .getBody());
        assertThat(readiness.path("components").has("outboxPublishing")).isFalse();
    }

    private String management(String path) {
        return "http://127.0.0.1:" + managementPort + path;
    }

    private UUID placeOrder() throws Exception {
        ResponseEntity<String> response = post("""
                {"amount":15000,"currency":"KRW","orderName":"Annual plan"}""");
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CREATED);
        return UUID.fromString(json.readTree(response.getBody()).get("orderId").asText());
    }

    private ResponseEntity<String> post(String body) {
        return post(body, memberToken());
    }

    /** @param bearer the access token to send, or null for none */
    private ResponseEntity<String> post(String body, String bearer) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        if (bearer != null) {
            headers.setBearerAuth(bearer);
        }
        return http.exchange("/api/orders", HttpMethod.POST, new HttpEntity<>(body, headers), String.class);
    }

    /** @param bearer the access token to send, or null for none */
    private ResponseEntity<String> get(String path, String bearer) {
        HttpHeaders headers = new HttpHeaders();
        if (bearer != null) {
            headers.setBearerAuth(bearer);
        }
        return http.exchange(path, HttpMethod.GET, new HttpEntity<>(headers), String.class);
    }

    /** member-1's token from the test issuer: every order of these tests is theirs unless a test says otherwise. */
    private static String memberToken() {
        return AuthServer.shared().member("member-1");
    }

    private JsonNode order(UUID orderId) throws Exception {
        return json.readTree(get("/api/orders/" + orderId, memberToken()).getBody());
    }

    private void awaitStatus(UUID orderId, String status) {
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(order(orderId).get("status").asText())
                .isEqualTo(status));
    }

    private void awaitPaymentId(UUID orderId, UUID paymentId) {
        await().atMost(EVENTUALLY).untilAsserted(() -> {
            JsonNode order = order(orderId);
            assertThat(order.get("paymentId").asText()).isEqualTo(paymentId.toString());
            assertThat(order.get("status").asText()).isEqualTo("PAYMENT_PENDING");
        });
    }

    private static List<ConsumerRecord<String, String>> awaitOrderEvents(String orderId, int count) {
        List<ConsumerRecord<String, String>> records = ORDER_EVENTS.read(r -> orderId.equals(r.key()), count, EVENTUALLY);
        assertThat(records).as("events of order %s on %s", orderId, Topics.ORDER_EVENTS).hasSize(count);
        return records;
    }

    private void assertPublishedAsContract(ConsumerRecord<String, String> record, String orderId, EventType type)
            throws Exception {
        JsonNode envelope = json.readTree(record.value());
        assertThat(record.key()).isEqualTo(orderId);
        assertThat(TestTopic.header(record, Topics.HEADER_EVENT_TYPE)).isEqualTo(type.wireName());
        assertThat(TestTopic.header(record, Topics.HEADER_EVENT_ID)).isEqualTo(envelope.get("eventId").asText());
        assertThat(envelope.get("type").asText()).isEqualTo(type.wireName());
        assertThat(envelope.get("aggregateId").asText()).isEqualTo(orderId);
        assertThat(GoldenEvents.shapeDifferences(record.value())).as(record.value()).isEmpty();
    }

    private static JsonNode assertProblem(ResponseEntity<String> response, int status, String code) throws Exception {
        assertThat(response.getStatusCode().value()).as(response.getBody()).isEqualTo(status);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        JsonNode problem = new ObjectMapper().readTree(response.getBody());
        assertThat(problem.get("code").asText()).isEqualTo(code);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        return problem;
    }

    private long count(String table) {
        return jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single();
    }


    @Test
    void anOperatorReadsTheRelayLagFromAnyReplicaAndAMemberIsRefused() throws Exception {
        UUID orderId = placeOrder();
        awaitOrderEvents(orderId.toString(), 1);
        String operator = AuthServer.shared().operator("operator-1", "orders:read");

        await().atMost(EVENTUALLY).untilAsserted(() -> {
            ResponseEntity<String> read = get("/api/outbox/backlog", operator);
            assertThat(read.getStatusCode()).isEqualTo(HttpStatus.OK);
            JsonNode relay = json.readTree(read.getBody());
            assertThat(relay.path("topic").asText()).isEqualTo(Topics.ORDER_EVENTS);
            assertThat(relay.path("unpublished").isNumber()).as("measured from the database: " + relay).isTrue();
            assertThat(relay.path("unpublished").asLong()).as("the order's event is in Kafka").isZero();
            assertThat(relay.path("oldest").asText(null)).as("no unpublished row, no oldest").isNull();
        });
        assertProblem(get("/api/outbox/backlog", memberToken()), 403, "INSUFFICIENT_SCOPE");
        assertProblem(get("/api/outbox/backlog", null), 401, "UNAUTHENTICATED");
    }

    @Test
    void theServedOpenApiDocumentIsTheCommittedOne() {
        CommittedApiDocument.assertServedIsCommitted("order-service", port);
    }

    @Test
    void aProblemsTypeResolvesToThePageDescribingItsCode() throws Exception {
        ResponseEntity<String> notFound = get("/api/orders/" + UUID.randomUUID(), memberToken());
        JsonNode problem = json.readTree(notFound.getBody());
        assertThat(problem.path("code").asText()).isEqualTo("ORDER_NOT_FOUND");
        URI type = URI.create(problem.path("type").asText());
        assertThat(type.getFragment()).isEqualTo("order_not_found");

        // Resolved against the service that answered, as RFC 9457 resolves a relative type; no token needed.
        ResponseEntity<String> page = get(type.getPath(), null);

        assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(page.getHeaders().getContentType()).isNotNull();
        assertThat(page.getHeaders().getContentType().isCompatibleWith(MediaType.parseMediaType("text/markdown")))
                .isTrue();
        assertThat(page.getBody()).contains("\n### ORDER_NOT_FOUND\n");
    }
}
