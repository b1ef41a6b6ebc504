package dev.payments.notification;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.notification.support.Infrastructure;
import dev.payments.notification.support.RecordingSender;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.CommittedApiDocument;
import dev.payments.testsupport.infra.TestTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.payments.contracts.RelayedGoldenEvents.publish;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * notification-service on real PostgreSQL and Kafka: payment events in, what the customer is sent and what an
 * operator sees over HTTP out.
 */
@ActiveProfiles("local")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "notification.delivery.poll-interval=100ms",
        "notification.delivery.initial-backoff=100ms",
        "notification.delivery.max-attempts=3"})
@AutoConfigureObservability(tracing = false)
// Close the application while Kafka and PostgreSQL still run; their JVM shutdown hooks would otherwise race it.
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class NotificationServiceIntegrationTest {

    private static final Duration EVENTUALLY = Duration.ofSeconds(20);

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        Infrastructure.register(registry);
    }

    @TestConfiguration
    static class Channel {

        @Bean
        @Primary
        RecordingSender recordingSender() {
            return new RecordingSender();
        }
    }

    @Autowired
    TestRestTemplate http;

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RecordingSender channel;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

    /** notification-service in production; the shared test infrastructure may give each test context its own group. */
    @Value("${spring.kafka.consumer.group-id}")
    String consumerGroup;

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void anApprovedPaymentSendsCompletedAndReceiptOnceEvenWhenDeliveredTwice() throws Exception {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();
        UUID approval = UUID.randomUUID();

        publish(EventType.PAYMENT_APPROVED, orderId, paymentId, approval, "member-1");
        publish(EventType.PAYMENT_APPROVED, orderId, paymentId, approval, "member-1");   // redelivery: inbox drops it
        publish(EventType.PAYMENT_APPROVED, orderId, paymentId);                          // republished, new event id
        publish(EventType.PAYMENT_CANCELED, orderId, paymentId);                          // same partition, after them

        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(orderId))
                .extracting(n -> n.get("kind").asText() + "/" + n.get("status").asText())
                .containsExactlyInAnyOrder("PAYMENT_COMPLETED/SENT", "RECEIPT/SENT", "PAYMENT_CANCELED/SENT"));
        assertThat(channel.deliveredFor(orderId)).as("each message reached the customer once").isEqualTo(3);

        JsonNode completed = notifications(orderId).stream()
                .filter(n -> n.get("kind").asText().equals("PAYMENT_COMPLETED")).findFirst().orElseThrow();
        assertThat(completed.get("notificationId").asText()).isNotBlank();
        assertThat(completed.get("orderId").asText()).isEqualTo(orderId.toString());
        assertThat(completed.get("paymentId").asText()).isEqualTo(paymentId.toString());
        assertThat(completed.get("memberId").asText()).isEqualTo("member-1");
        assertThat(notifications(orderId, "member-2")).as("another member's order lists nothing").isEmpty();
        assertThat(completed.get("amount").asLong()).isEqualTo(15000);
        assertThat(completed.get("currency").asText()).isEqualTo("KRW");
        assertThat(completed.get("attempts").asInt()).isEqualTo(1);
        assertThat(completed.get("createdAt").asText()).isNotBlank();
        assertThat(completed.get("sentAt").asText()).isNotBlank();
    }

    @Test
    void eachRefundThatGaveMoneyBackIsToldOnceAndOnlyThose() throws Exception {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();
        UUID firstRefund = UUID.randomUUID();

        publish(EventType.REFUND_REQUESTED, orderId, paymentId);
        publish(EventType.REFUND_UNKNOWN, orderId, paymentId);
        publish(EventType.REFUND_SUCCEEDED, orderId, paymentId, firstRefund, "member-1");
        publish(EventType.REFUND_SUCCEEDED, orderId, paymentId, firstRefund, "member-1");   // redelivery: inbox drops it
        publish(EventType.REFUND_FAILED, orderId, paymentId);
        publish(EventType.REFUND_SUCCEEDED, orderId, paymentId);                             // a second refund

        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(orderId))
                .extracting(n -> n.get("kind").asText() + "/" + n.get("status").asText() + "/" + n.get("amount").asLong())
                .containsExactly("PAYMENT_REFUNDED/SENT/4000", "PAYMENT_REFUNDED/SENT/4000"));
        assertThat(channel.deliveredFor(orderId)).isEqualTo(2);
    }

    @Test
    void whileMoneyMayHaveMovedTheCustomerIsToldNothingAndAFinalFailureIsToldOnce() throws Exception {
        UUID orderId = UUID.randomUUID();
        UUID paymentId = UUID.randomUUID();

        publish(EventType.PAYMENT_REQUESTED, orderId, paymentId);
        publish(EventType.PAYMENT_UNKNOWN, orderId, paymentId);
        publish(EventType.PAYMENT_DECLINED, orderId, paymentId);

        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(orderId))
                .extracting(n -> n.get("kind").asText() + "/" + n.get("status").asText())
                .containsExactly("PAYMENT_FAILED/SENT"));

        UUID otherOrder = UUID.randomUUID();
        publish(EventType.PAYMENT_FAILED, otherOrder, UUID.randomUUID());
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(otherOrder))
                .extracting(n -> n.get("kind").asText()).containsExactly("PAYMENT_FAILED"));
    }

    @Test
    void aDeliveryFailureIsRetriedThenGivenUpAndNeverFailsTheConsumer() throws Exception {
        UUID unreachable = UUID.randomUUID();
        UUID event = UUID.randomUUID();
        publish(EventType.PAYMENT_APPROVED, unreachable, UUID.randomUUID(), event, RecordingSender.UNREACHABLE_MEMBER);
        UUID next = UUID.randomUUID();
        publish(EventType.PAYMENT_APPROVED, next, UUID.randomUUID());

        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(next))
                .extracting(n -> n.get("status").asText()).containsExactly("SENT", "SENT"));
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(unreachable, RecordingSender.UNREACHABLE_MEMBER))
                .allSatisfy(n -> {
                    assertThat(n.get("status").asText()).isEqualTo("FAILED");
                    assertThat(n.get("attempts").asInt()).isEqualTo(3);
                }).hasSize(2));
        assertThat(jdbc.sql("SELECT last_error FROM notifications WHERE order_id = :id").param("id", unreachable)
                .query(String.class).list()).allSatisfy(error -> assertThat(error).contains("unreachable"));
        assertThat(jdbc.sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", event)
                .query(Integer.class).single()).as("the payment event itself was consumed").isEqualTo(1);
    }

    @Test
    void poisonMessagesLandOnTheDeadLetterTopic() throws Exception {
        TestTopic paymentEvents = TestTopic.named(Topics.PAYMENT_EVENTS);
        paymentEvents.send("not-an-event", "{\"hello\":", Map.of());
        String unknownType = GoldenEvents.json(EventType.PAYMENT_APPROVED, UUID.randomUUID(),
                UUID.randomUUID(), UUID.randomUUID(), "member-1").replace("\"PaymentApproved\"", "\"PaymentRefunded\"");
        paymentEvents.send("unknown-type", unknownType, Map.of());
        UUID afterPoison = UUID.randomUUID();
        publish(EventType.PAYMENT_CANCELED, afterPoison, UUID.randomUUID());

        TestTopic deadLetters = TestTopic.named(Topics.deadLetter(Topics.PAYMENT_EVENTS, consumerGroup));
        List<ConsumerRecord<String, String>> parked = deadLetters.read(r -> "not-an-event".equals(r.key())
                || "unknown-type".equals(r.key()), 2, EVENTUALLY);
        assertThat(parked).extracting(ConsumerRecord::key).containsExactlyInAnyOrder("not-an-event", "unknown-type");
        assertThat(parked).filteredOn(r -> r.key().equals("unknown-type"))
                .allSatisfy(r -> assertThat(EventJson.readTree(r.value()).get("type").asText())
                        .isEqualTo("PaymentRefunded"));
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(afterPoison)).hasSize(1));
    }

    @Test
    void theApiAnswersProblemJsonForBadQueriesAndAnEmptyListForAnOrderWithoutNotifications() throws Exception {
        assertProblem(get("/api/notifications", "member-1"), "VALIDATION_FAILED");
        assertProblem(get("/api/notifications?orderId=42", "member-1"), "VALIDATION_FAILED");
        ResponseEntity<String> none = get("/api/notifications?orderId=" + UUID.randomUUID(), "member-1");
        ResponseEntity<String> anonymous = get("/api/notifications?orderId=" + UUID.randomUUID(), null);
        assertThat(anonymous.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(anonymous.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(json.readTree(anonymous.getBody()).get("code").asText()).isEqualTo("UNAUTHENTICATED");
        assertThat(none.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(json.readTree(none.getBody()).isArray()).isTrue();
        assertThat(json.readTree(none.getBody())).isEmpty();
    }

    @Test
    void anOperatorWithTheScopeSeesAnyMembersNotificationsOfAnOrderAndNobodyElseDoes() throws Exception {
        UUID orderId = UUID.randomUUID();
        UUID failedPayment = UUID.randomUUID();
        UUID paidPayment = UUID.randomUUID();
        publish(EventType.PAYMENT_FAILED, orderId, failedPayment);
        publish(EventType.PAYMENT_APPROVED, orderId, paidPayment);
        await().atMost(EVENTUALLY).untilAsserted(() -> assertThat(notifications(orderId))
                .extracting(n -> n.get("status").asText()).containsExactly("SENT", "SENT", "SENT"));

        String operator = AuthServer.shared().operator("operator-1", "notifications:read");
        ResponseEntity<String> all = getAs("/api/operator-notifications?orderId=" + orderId, operator);
        assertThat(all.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(json.readTree(all.getBody())).extracting(n -> n.get("kind").asText() + "/" + n.get("memberId").asText())
                .as("every notification of the order, oldest first, with the member it went to")
                .containsExactly("PAYMENT_FAILED/member-1", "PAYMENT_COMPLETED/member-1", "RECEIPT/member-1");
        ResponseEntity<String> onePayment = getAs("/api/operator-notifications?orderId=" + orderId
                + "&paymentId=" + paidPayment, operator);
        assertThat(json.readTree(onePayment.getBody())).extracting(n -> n.get("paymentId").asText())
                .containsOnly(paidPayment.toString()).hasSize(2);

        ResponseEntity<String> member = get("/api/operator-notifications?orderId=" + orderId, "member-1");
        assertThat(member.getStatusCode()).as("a member's token, even the order's own member").isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(member.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(json.readTree(member.getBody()).get("code").asText()).isEqualTo("INSUFFICIENT_SCOPE");
        assertThat(getAs("/api/operator-notifications?orderId=" + orderId,
                AuthServer.shared().operator("operator-1", "payments:read")).getStatusCode())
                .as("another service's read scope").isEqualTo(HttpStatus.FORBIDDEN);
        assertProblem(getAs("/api/operator-notifications", operator), "VALIDATION_FAILED");
        assertProblem(getAs("/api/operator-notifications?orderId=" + orderId + "&paymentId=42", operator),
                "VALIDATION_FAILED");
    }

    @Test
    void operatorsSeeFourConsumerThreadsNoOutboxAndHealth() {
        assertThat(listeners.getListenerContainers()).singleElement().satisfies(container ->
                assertThat(((ConcurrentMessageListenerContainer<?, ?>) container).getConcurrency()).isEqualTo(4));
        assertThat(jdbc.sql("SELECT to_regclass('outbox') IS NULL").query(Boolean.class).single())
                .as("publishes nothing: no outbox table").isTrue();
        String management = "http://127.0.0.1:" + managementPort;
        ResponseEntity<String> health = http.getForEntity(management + "/actuator/health/readiness", String.class);
        assertThat(health.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(http.getForEntity(management + "/actuator/prometheus", String.class).getBody()).contains("inbox_events");
        assertThat(get("/actuator/prometheus", "member-1").getStatusCode())
                .as("the API port serves only the API, even to a caller with a valid token").isEqualTo(HttpStatus.NOT_FOUND);
    }

    /** member-1's view: the golden events' member. */
    private List<JsonNode> notifications(UUID orderId) throws Exception {
        return notifications(orderId, GoldenEvents.MEMBER_ID);
    }

    /** The notifications of an order as one member sees them, with that member's token. */
    private List<JsonNode> notifications(UUID orderId, String memberId) throws Exception {
        ResponseEntity<String> response = get("/api/notifications?orderId=" + orderId, memberId);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        List<JsonNode> list = new java.util.ArrayList<>();
        json.readTree(response.getBody()).forEach(list::add);
        return list;
    }

    /** @param memberId whose token to send, or null for none */
    private ResponseEntity<String> get(String path, String memberId) {
        return getAs(path, memberId == null ? null : AuthServer.shared().member(memberId));
    }

    /** @param bearer the access token to send, or null for none */
    private ResponseEntity<String> getAs(String path, String bearer) {
        org.springframework.http.HttpHeaders headers = new org.springframework.http.HttpHeaders();
        if (bearer != null) {
            headers.setBearerAuth(bearer);
        }
        return http.exchange(path, org.springframework.http.HttpMethod.GET,
                new org.springframework.http.HttpEntity<>(headers), String.class);
    }

    private void assertProblem(ResponseEntity<String> response, String code) throws Exception {
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(json.readTree(response.getBody()).get("code").asText()).isEqualTo(code);
    }


    @Test
    void theServedOpenApiDocumentIsTheCommittedOne() {
        CommittedApiDocument.assertServedIsCommitted("notification-service", port);
    }
}
