package dev.payments.payment;

import dev.payments.contracts.EventJson;
import dev.payments.contracts.GoldenEvents;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.pgsim.fault.AsyncProcessing;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.CommittedApiDocument;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.testsupport.infra.TestTopic;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.confirmBody;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The confirm API through real HTTP, PostgreSQL, Debezium, Kafka and the PG simulator. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.confirm-read-timeout=2s",
        "pg.client.query-timeout=1s",
        "payment.approval.deadline=5s",
        "payment.approval.per-member-per-minute=1000"})
// Tracing as in production (sampled, exported to an in-memory exporter here) for the span-tree test; metrics stay
// in the test's simple registry.
@AutoConfigureObservability(metrics = false)
class ConfirmPaymentIntegrationTest extends PaymentServiceTestBase {

    @Autowired
    InMemorySpanExporter spans;
    @Autowired
    DownstreamConsumer downstream;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_confirm_it");
    }

    @Test
    void approvesAndPublishesRequestedThenApprovedKeyedByOrder() {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "key-1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text("status")).isEqualTo("APPROVED");
        assertThat(response.text("pgTransactionKey")).isNotBlank();
        String paymentId = response.text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
        assertThat(jdbc.sql("SELECT customer_notice FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(String.class).single()).isEqualTo("APPROVED");

        List<ConsumerRecord<String, String>> events = paymentEvents(order.orderId().toString(), 2);
        assertThat(events).extracting(record -> header(record, Topics.HEADER_EVENT_TYPE))
                .containsExactly("PaymentRequested", "PaymentApproved");
        for (ConsumerRecord<String, String> event : events) {
            assertThat(event.key()).isEqualTo(order.orderId().toString());
            assertThat(header(event, Topics.HEADER_EVENT_ID)).isEqualTo(EventJson.read(event.value()).eventId().toString());
            assertThat(GoldenEvents.shapeDifferences(event.value())).isEmpty();
        }
        assertThat(simulator().ledger().paymentForOrder(order.orderId().toString())).get()
                .satisfies(payment -> assertThat(payment.status().name()).isEqualTo("DONE"));
    }

    @Test
    void anApprovalIsOneTraceFromTheRequestThroughTheOutboxAndTheRelaysPublishToAConsumer() {
        OrderCreated order = orderCreated(jdbc, member(), 17_000);

        Response response = confirm(port, order, "trace-1");

        assertThat(response.status()).isEqualTo(200);
        List<ConsumerRecord<String, String>> events = paymentEvents(order.orderId().toString(), 2);
        Map<String, String> eventIds = new LinkedHashMap<>();
        events.forEach(event -> eventIds.put(header(event, Topics.HEADER_EVENT_TYPE), header(event, Topics.HEADER_EVENT_ID)));
        assertThat(eventIds).containsOnlyKeys("PaymentRequested", "PaymentApproved");
        await().atMost(Duration.ofSeconds(30)).until(() -> eventIds.values().stream()
                .allMatch(id -> downstream.consumerSpans.containsKey(id)
                        && finished(downstream.consumerSpans.get(id)).isPresent()));

        // Each event: consumer (CONSUMER) -> the relay's publish (PRODUCER) -> the transaction that wrote the outbox
        // row -> the HTTP request (SERVER). One request span, one trace id for all of it.
        Set<String> requestSpans = new HashSet<>();
        Map<String, String> writers = Map.of("PaymentRequested", "payment.tx1", "PaymentApproved", "payment.tx2");
        eventIds.forEach((type, eventId) -> {
            SpanData consume = finished(downstream.consumerSpans.get(eventId)).orElseThrow();
            assertThat(consume.getKind()).as(type + " consumed").isEqualTo(SpanKind.CONSUMER);
            SpanData publish = parentOf(consume);
            assertThat(publish.getKind()).as(type + " consumer's parent").isEqualTo(SpanKind.PRODUCER);
            assertThat(publish.getName()).isEqualTo("send " + Topics.PAYMENT_EVENTS);
            assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("kafka");
            assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))
                    .isEqualTo(Topics.PAYMENT_EVENTS);
            assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.operation.type"))).isEqualTo("send");
            assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo(eventId);
            SpanData writer = parentOf(publish);
            assertThat(writer.getName()).as(type + " publish's parent wrote the outbox row").isEqualTo(writers.get(type));
            SpanData request = parentOf(writer);
            assertThat(request.getKind()).as(type + " writer's parent").isEqualTo(SpanKind.SERVER);
            assertThat(request.getName()).isEqualTo("http post /api/payments/confirm");
            assertThat(List.of(consume, publish, writer).stream().map(SpanData::getTraceId).distinct().toList())
                    .containsExactly(request.getTraceId());
            requestSpans.add(request.getSpanId());
        });
        assertThat(requestSpans).as("both events belong to the one request").hasSize(1);
    }

    private java.util.Optional<SpanData> finished(String spanId) {
        return spans.getFinishedSpanItems().stream().filter(span -> span.getSpanId().equals(spanId)).findFirst();
    }

    private SpanData parentOf(SpanData child) {
        assertThat(child.getParentSpanContext().isValid()).as("%s (%s) continues a trace", child.getName(), child.getKind())
                .isTrue();
        // The request's span ends after its response, and spans are exported in batches: wait for the parent.
        await().atMost(Duration.ofSeconds(15)).until(() -> finished(child.getParentSpanId()).isPresent());
        SpanData parent = finished(child.getParentSpanId()).orElseThrow();
        assertThat(parent.getTraceId()).isEqualTo(child.getTraceId());
        return parent;
    }

    @Test
    void fieldReport000PgSlowScaledEveryApprovalApprovedNoPoolTimeout() throws Exception {
        // 000: PG 5 s late (a third of the 15 s read timeout), pool 10, 5x the pool concurrently. Scaled to this
        // class's 2 s read timeout: PG 0.7 s late.
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 50, i -> member(), i -> 5_000 + i);
        orders.forEach(order -> PaymentTestSupport.memberToken(order.memberId()));   // signed before, not during, the burst
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(dev.payments.pgsim.fault.Latency.fixed(700)));
        double poolTimeoutsBefore = meters.get("hikaricp.connections.timeout").counter().count();
        long cancelsBefore = simulator().stats().cancels();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

        List<Response> responses = concurrently(50, () -> {
            OrderCreated order = orders.get(next.getAndIncrement());
            return confirm(port, order, "slow-" + order.orderId());
        });

        assertThat(responses).allSatisfy(response -> assertThat(response.status()).isEqualTo(200));
        assertThat(meters.get("hikaricp.connections.timeout").counter().count()).isEqualTo(poolTimeoutsBefore);
        assertThat(simulator().stats().cancels()).isEqualTo(cancelsBefore);
    }

    @Test
    void aRepeatedRequestGetsTheStoredAnswerAndAReusedKeyIsAConflict() {
        OrderCreated order = orderCreated(jdbc, member(), 20_000);
        Response first = confirm(port, order, "key-repeat");
        long confirmsBefore = simulator().stats().confirmsReceived();

        Response again = confirm(port, order, "key-repeat");
        Response otherBody = confirm(port, order.memberId(), "key-repeat",
                confirmBody(order.orderId(), "another-payment-key", order.amount()));

        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(otherBody.status()).isEqualTo(409);
        assertThat(otherBody.text("code")).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(confirmsBefore);
    }

    @Test
    void aPaymentIsItsMembersAloneAndOnlyAVerifiedTokenSaysWhoTheMemberIs() {
        OrderCreated order = orderCreated(jdbc, member(), 12_000);
        String paymentId = confirm(port, order, "own-1").text("paymentId");
        String stranger = member();
        long cancelsBefore = simulator().stats().cancels();
        String path = "/api/payments/" + paymentId;

        Response mine = PaymentTestSupport.get(port, path, PaymentTestSupport.memberToken(order.memberId()));
        Response theirs = PaymentTestSupport.get(port, path, PaymentTestSupport.memberToken(stranger));
        Response refundTheirs = PaymentTestSupport.cancel(port, stranger, paymentId, null);

        assertThat(mine.status()).isEqualTo(200);
        assertThat(mine.text("status")).isEqualTo("APPROVED");
        assertThat(List.of(theirs, refundTheirs)).allSatisfy(refused -> {
            assertThat(refused.status()).as("another member's payment does not exist for them").isEqualTo(404);
            assertThat(refused.text("code")).isEqualTo("PAYMENT_NOT_FOUND");
            assertThat(refused.contentType()).startsWith("application/problem+json");
        });

        AuthServer issuer = AuthServer.shared();
        java.util.Map<String, String> refusedTokens = java.util.Map.of(
                "expired", issuer.token(order.memberId()).scopes("member").expiresAt(java.time.Instant.now().minusSeconds(600)).sign(),
                "another audience", issuer.token(order.memberId()).scopes("member").audience("another-api").sign(),
                "another issuer", issuer.token(order.memberId()).scopes("member").issuer("http://127.0.0.1:1").sign(),
                "a forged signature", issuer.token(order.memberId()).scopes("member").forgedSignature().sign(),
                "a CR/LF subject", issuer.token(order.memberId() + "\r\nforged").scopes("member").sign(),
                "no token at all", "");
        refusedTokens.forEach((what, token) -> {
            Response refused = PaymentTestSupport.cancel(port, null, paymentId, null, token.isEmpty() ? null : token);
            assertThat(refused.status()).as(what).isEqualTo(401);
            assertThat(refused.text("code")).as(what).isEqualTo(token.isEmpty() ? "UNAUTHENTICATED" : "INVALID_TOKEN");
            assertThat(refused.contentType()).as(what).startsWith("application/problem+json");
        });
        Response operator = PaymentTestSupport.cancel(port, null, paymentId, null, PaymentTestSupport.operatorToken());
        assertThat(operator.status()).as("an operator is not a member").isEqualTo(403);
        assertThat(operator.text("code")).isEqualTo("INSUFFICIENT_SCOPE");

        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
        assertThat(simulator().stats().cancels()).as("the PG's books are untouched").isEqualTo(cancelsBefore);
    }

    @Test
    void theSameKeyFromAnotherMemberIsAnotherRequest() {
        OrderCreated order = orderCreated(jdbc, member(), 20_000);
        confirm(port, order, "shared-key");

        Response stranger = confirm(port, member(), "shared-key",
                confirmBody(order.orderId(), "pk-" + order.orderId(), order.amount()));

        assertThat(stranger.status()).isEqualTo(404);
        assertThat(stranger.text("code")).isEqualTo("ORDER_NOT_FOUND");
    }

    @Test
    void fiftyConcurrentDuplicatesReachThePgOnce() throws Exception {
        OrderCreated order = orderCreated(jdbc, member(), 30_000);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(dev.payments.pgsim.fault.Latency.fixed(300)));
        long confirmsBefore = simulator().stats().confirmsReceived();

        List<Response> responses = concurrently(50, () -> confirm(port, order, "dup-key"));

        Set<String> paymentIds = new HashSet<>();
        for (Response response : responses) {
            assertThat(response.status()).isIn(200, 202);
            paymentIds.add(response.text("paymentId"));
        }
        assertThat(paymentIds).hasSize(1);
        assertThat(simulator().stats().confirmsReceived() - confirmsBefore).isEqualTo(1);
        assertThat(simulator().ledger().transactions().stream()
                .filter(tx -> tx.orderId().equals(order.orderId().toString()))).hasSize(1);
    }

    @Test
    void badInputIsAProblemWithACodeAndChangesNothing() {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String body = confirmBody(order.orderId(), "pk-x", order.amount());
        long paymentsBefore = countPayments();

        Response noKey = confirm(port, order.memberId(), null, body);
        Response noMember = confirm(port, null, "k", body);
        Response badJson = confirm(port, order.memberId(), "k", "{not json");
        Response missingField = confirm(port, order.memberId(), "k", "{\"orderId\":\"" + order.orderId() + "\"}");
        Response wrongAmount = confirm(port, order.memberId(), "k", confirmBody(order.orderId(), "pk-x", 1));
        Response unknownOrder = confirm(port, order.memberId(), "k", confirmBody(UUID.randomUUID(), "pk-x", 100));

        assertThat(noKey.status()).isEqualTo(400);
        assertThat(noKey.text("code")).isEqualTo("MISSING_HEADER");
        assertThat(noKey.contentType()).startsWith("application/problem+json");
        assertThat(noMember.status()).as("no token: no member").isEqualTo(401);
        assertThat(noMember.text("code")).isEqualTo("UNAUTHENTICATED");
        assertThat(badJson.status()).isEqualTo(400);
        assertThat(badJson.text("code")).isEqualTo("MALFORMED_REQUEST");
        assertThat(missingField.status()).isEqualTo(400);
        assertThat(missingField.text("code")).isEqualTo("VALIDATION_FAILED");
        assertThat(wrongAmount.status()).isEqualTo(400);
        assertThat(wrongAmount.text("code")).isEqualTo("AMOUNT_MISMATCH");
        assertThat(unknownOrder.status()).isEqualTo(404);
        assertThat(unknownOrder.text("code")).isEqualTo("ORDER_NOT_FOUND");
        assertThat(countPayments()).isEqualTo(paymentsBefore);
        // The refused requests did not burn the key: the right request with it still works.
        assertThat(confirm(port, order.memberId(), "k", body).status()).isEqualTo(200);
    }

    @Test
    void anApprovalTakesTheMembersTokenInTheTransactionThatStartsItsPayment() {
        OrderCreated order = orderCreated(jdbc, member(), 12_000);

        Response response = confirm(port, order, "one-commit-" + order.orderId());

        assertThat(response.status()).isEqualTo(200);
        // xmin is the transaction that wrote the row. TX-2 rewrites the payment and the key, not these two.
        String requested = jdbc.sql("SELECT xmin::text FROM outbox WHERE aggregateid = :payment AND type = 'PaymentRequested'")
                .param("payment", response.text("paymentId")).query(String.class).single();
        String token = jdbc.sql("SELECT xmin::text FROM member_rate_buckets WHERE member_id = :member")
                .param("member", order.memberId()).query(String.class).single();
        assertThat(token).as("the transaction that took the member's token").isEqualTo(requested);
    }

    @Test
    void aPaidOrderIsAConflict() {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        assertThat(confirm(port, order, "first").status()).isEqualTo(200);

        Response second = confirm(port, order, "second");

        assertThat(second.status()).isEqualTo(409);
        assertThat(second.text("code")).isIn("PAYMENT_IN_PROGRESS", "ORDER_ALREADY_PAID");
    }

    @Test
    void aDeclineIsAnsweredOnceAndNeverRetried() {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withDecline(1.0, DeclineReason.EXCEED_MAX_CARD_LIMIT));
        long confirmsBefore = simulator().stats().confirmsReceived();
        for (int i = 0; i < 12; i++) {
            OrderCreated order = orderCreated(jdbc, member(), 15_000);

            Response response = confirm(port, order, "decline-" + i);

            assertThat(response.status()).isEqualTo(422);
            assertThat(response.text("code")).isEqualTo("PAYMENT_DECLINED");
            assertThat(response.text("pgCode")).isEqualTo("EXCEED_MAX_CARD_LIMIT");
            assertThat(paymentStatus(response.text("paymentId"))).isEqualTo("DECLINED");
        }
        assertThat(simulator().stats().confirmsReceived() - confirmsBefore).isEqualTo(12);
        // 4xx means the PG is healthy: declines never open the breaker.
        assertThat(breakers.circuitBreaker("pg-approve").getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aLostAnswerIsSettledByTheStatusQuery() {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withDropResponse(1.0, DropMode.RESET));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "lost-1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text("status")).isEqualTo("APPROVED");
        assertThat(simulator().stats().confirmsReceived()).isPositive();
    }

    @Test
    void aLostAnswerWithTheQueryDownIsPendingNeverFailedAndSyncSettlesIt() {
        simulator().faults().set(
                FaultSpec.none(Operation.CONFIRM).withDropResponse(1.0, DropMode.HANG),
                FaultSpec.none(Operation.QUERY).withHang(true));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "lost-2");

        assertThat(response.status()).isEqualTo(202);
        assertThat(response.text("status")).isEqualTo("PENDING");
        String paymentId = response.text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        assertThat(simulator().ledger().paymentForOrder(order.orderId().toString())).get()
                .satisfies(payment -> assertThat(payment.status().name()).isEqualTo("DONE"));
        assertThat(paymentEvents(order.orderId().toString(), 2))
                .extracting(record -> header(record, Topics.HEADER_EVENT_TYPE))
                .containsExactly("PaymentRequested", "PaymentUnknown");

        simulator().faults().reset();
        Response unauthorized = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/sync", null);
        Response asTheMember = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/sync",
                PaymentTestSupport.memberToken(order.memberId()));
        assertThat(paymentStatus(paymentId)).as("a refused sync changes nothing").isEqualTo("UNKNOWN");
        Response synced = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/sync", PaymentTestSupport.operatorToken());
        Response syncedAgain = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/sync", PaymentTestSupport.operatorToken());

        assertThat(unauthorized.status()).isEqualTo(401);
        assertThat(unauthorized.text("code")).isEqualTo("UNAUTHENTICATED");
        assertThat(asTheMember.status()).isEqualTo(403);
        assertThat(asTheMember.text("code")).isEqualTo("INSUFFICIENT_SCOPE");
        assertThat(synced.status()).isEqualTo(200);
        assertThat(synced.text("requestedBy")).as("the operator is the token's subject").isEqualTo("operator-1");
        assertThat(synced.text("action")).isEqualTo("APPROVED");
        assertThat(syncedAgain.text("action")).isEqualTo("NONE");
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
        // The audit trail: both syncs and the member's refused one, with the operator named; a call without a token
        // names nobody.
        Response trail = PaymentTestSupport.get(port, "/api/operator-actions?objectId=" + paymentId,
                PaymentTestSupport.operatorToken("audit:read"));
        assertThat(trail.status()).as(String.valueOf(trail.body())).isEqualTo(200);
        List<String> recorded = new ArrayList<>();
        trail.body().path("actions").forEach(action -> recorded.add(String.join(" | ", action.path("subject").asText(),
                action.path("action").asText(), action.path("result").asText(), action.path("status").asText("-"),
                action.path("inTransaction").asText())));
        assertThat(recorded).as("newest first").containsExactly(
                "operator-1 | POST /api/payments/{paymentId}/sync | DONE | - | true",
                "operator-1 | POST /api/payments/{paymentId}/sync | DONE | - | true",
                order.memberId() + " | POST /api/payments/{paymentId}/sync | REFUSED | 403 | false",
                "anonymous | POST /api/payments/{paymentId}/sync | REFUSED | 401 | false");
        assertThat(PaymentTestSupport.get(port, "/api/operator-actions", PaymentTestSupport.operatorToken()).status())
                .as("the trail needs audit:read").isEqualTo(403);
        // The same key now answers with the settled state, not the PENDING stored when the answer was lost.
        Response replayed = confirm(port, order, "lost-2");
        assertThat(replayed.status()).isEqualTo(200);
        assertThat(replayed.text("status")).isEqualTo("APPROVED");
    }

    @Test
    void aPgStillProcessingOurKeyIsNotADeclineTheStatusQuerySettlesIt() {
        // 409 IDEMPOTENT_REQUEST_PROCESSING: the PG has the confirm and books it; "declined" would be a lie.
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withErrorRate(1.0).withErrorStatus(409));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "in-progress-" + order.orderId());

        assertThat(response.status()).as(response.body().toString()).isEqualTo(200);
        assertThat(response.text("status")).isEqualTo("APPROVED");
        assertThat(paymentStatus(response.text("paymentId"))).isEqualTo("APPROVED");
        assertThat(pgState(order)).isEqualTo("DONE");
    }

    @Test
    void aThrottledConfirmIsNotADeclineItIsPendingUntilThePgSays() {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withErrorRate(1.0).withErrorStatus(429));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "throttled-" + order.orderId());

        assertThat(response.status()).as(response.body().toString()).isEqualTo(202);
        assertThat(response.text("status")).isEqualTo("PENDING");
        assertThat(paymentStatus(response.text("paymentId"))).isEqualTo("UNKNOWN");
    }

    @Test
    void anApprovalOfAnotherAmountIsAMismatchNeverAnApproval() {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withAmountDelta(500));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        double mismatchesBefore = approvals("pg_mismatch");

        Response response = confirm(port, order, "other-amount-" + order.orderId());

        assertThat(response.status()).as(response.body().toString()).isEqualTo(202);
        String paymentId = response.text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        assertThat(approvals("pg_mismatch"))
                .isEqualTo(mismatchesBefore + 1);
        Response synced = PaymentTestSupport.sync(port, paymentId);
        assertThat(synced.status()).isEqualTo(200);
        assertThat(synced.text("action")).isEqualTo("MISMATCH");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        assertThat(paymentEvents(order.orderId().toString(), 2))
                .extracting(record -> header(record, Topics.HEADER_EVENT_TYPE))
                .containsExactly("PaymentRequested", "PaymentUnknown");
    }

    @Test
    void theSyncAsksForOurPaymentKeyNotForWhateverTheOrderHasAtThePg() {
        simulator().faults().set(FaultSpec.none(Operation.ALL).withHang(true));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String paymentId = confirm(port, order, "ours-" + order.orderId()).text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        simulator().faults().reset();
        // Another payment of the same order reaches the PG (a second checkout, another system): not ours.
        assertThat(PaymentTestSupport.confirmAtPg("pk-someone-else-" + order.orderId(), order.orderId(), order.amount()))
                .isEqualTo(200);

        Response synced = PaymentTestSupport.sync(port, paymentId);

        assertThat(synced.status()).isEqualTo(200);
        assertThat(synced.text("action")).isEqualTo("RETRY_LATER");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        // Our key has no record at the PG: payment-service says when a sync can fail it (its request + 60 s).
        assertThat(Instant.parse(synced.text("retryAt"))).isAfter(Instant.now())
                .isBefore(Instant.now().plusSeconds(61));
    }

    @Test
    void aSettledPaymentsEventsArePublishedAgainWithTheirOwnIdsAndAnUnsettledOneIsRefused() {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String paymentId = confirm(port, order, "republish-1").text("paymentId");
        List<String> ids = paymentEvents(order.orderId().toString(), 2).stream()
                .map(record -> EventJson.read(record.value()).eventId().toString()).toList();

        Response unauthorized = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/republish", null);
        Response memberAsks = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/republish",
                PaymentTestSupport.memberToken(order.memberId()));
        Response republished = PaymentTestSupport.post(port, "/api/payments/" + paymentId + "/republish",
                PaymentTestSupport.operatorToken());

        assertThat(unauthorized.status()).isEqualTo(401);
        assertThat(memberAsks.status()).as("a member's token lacks payments:sync").isEqualTo(403);
        assertThat(republished.status()).as("%s", republished.body()).isEqualTo(200);
        assertThat(republished.body().path("payment").path("status").asText()).isEqualTo("APPROVED");
        assertThat(republished.body().path("events")).extracting(e -> e.path("type").asText())
                .containsExactly("PaymentRequested", "PaymentApproved");
        List<ConsumerRecord<String, String>> onTopic = paymentEvents(order.orderId().toString(), 4);
        assertThat(onTopic).extracting(record -> EventJson.read(record.value()).eventId().toString())
                .as("the same two events again, in their order").containsExactly(ids.get(0), ids.get(1), ids.get(0),
                        ids.get(1));
        assertThat(paymentStatus(paymentId)).as("no state changed").isEqualTo("APPROVED");

        simulator().faults().set(
                FaultSpec.none(Operation.CONFIRM).withDropResponse(1.0, DropMode.HANG),
                FaultSpec.none(Operation.QUERY).withHang(true));
        OrderCreated unsettled = orderCreated(jdbc, member(), 15_000);
        String unknownId = confirm(port, unsettled, "republish-2").text("paymentId");
        assertThat(paymentStatus(unknownId)).isEqualTo("UNKNOWN");

        Response notFinal = PaymentTestSupport.post(port, "/api/payments/" + unknownId + "/republish",
                PaymentTestSupport.operatorToken());
        Response unknown = PaymentTestSupport.post(port, "/api/payments/" + UUID.randomUUID() + "/republish",
                PaymentTestSupport.operatorToken());

        assertThat(notFinal.status()).isEqualTo(409);
        assertThat(notFinal.contentType()).startsWith("application/problem+json");
        assertThat(notFinal.text("code")).isEqualTo("PAYMENT_NOT_FINAL");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.text("code")).isEqualTo("PAYMENT_NOT_FOUND");
    }

    @Test
    void anAsynchronousApprovalArrivesBySignedCallback() {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withAsync(new AsyncProcessing(1.0,
                dev.payments.pgsim.fault.Latency.fixed(2_000), null, "http://127.0.0.1:" + port + "/api/pg/webhooks")));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);

        Response response = confirm(port, order, "async-1");

        // The callback's sync races our own TX-2; on a starved machine it can settle the payment first (200). Both
        // paths end APPROVED; the PG is asked either way, the callback's body is not read.
        assertThat(response.status()).isIn(200, 202);
        String paymentId = response.text("paymentId");
        await().atMost(Duration.ofSeconds(15)).until(() -> "APPROVED".equals(paymentStatus(paymentId)));
        // The simulator counts a callback once our 200 reached it, just after the payment was settled.
        await().atMost(Duration.ofSeconds(5)).until(() -> simulator().stats().callbacksSent() > 0);
        // Which label the acceptance is counted under (async_accepted, not a failure for 000's alert) is
        // ConfirmPaymentTest's: under load the confirm itself may time out first and count as pg_timeout.
    }

    @Test
    void aCallbackWithoutAValidFreshSignatureIsRefused() throws Exception {
        String body = "{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"orderId\":\"" + UUID.randomUUID()
                + "\",\"paymentKey\":\"pk\",\"status\":\"DONE\"}}";
        long now = java.time.Instant.now().getEpochSecond();
        String valid = dev.payments.pgsim.callback.CallbackSignature.sign("test_whsec_simulator", now, body);
        String stale = dev.payments.pgsim.callback.CallbackSignature.sign("test_whsec_simulator", now - 600, body);

        assertThat(webhook(body, now, valid)).isEqualTo(200);
        assertThat(webhook(body, now, "v1=00ff")).isEqualTo(401);
        assertThat(webhook(body.replace("DONE", "CANCELED"), now, valid)).isEqualTo(401);
        assertThat(webhook(body, now - 600, stale)).isEqualTo(401);
        assertThat(webhook(body, now, null)).isEqualTo(401);
    }

    @Test
    void aSignedCallbackIsAHintTheBodyNeverApprovesAPaymentThePgDoesNotHave() throws Exception {
        simulator().faults().set(FaultSpec.none(Operation.ALL).withHang(true));
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String paymentId = confirm(port, order, "hint-" + order.orderId()).text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        simulator().faults().reset();
        long queriesBefore = simulator().stats().queries();

        // A correctly signed body (a replay within the tolerance, a leaked secret) that the PG's books contradict.
        int status = signedWebhook(callback(order, "pk-" + order.orderId(), "DONE", 15_000));

        assertThat(status).isEqualTo(200);
        assertThat(paymentStatus(paymentId)).isEqualTo("UNKNOWN");
        assertThat(simulator().stats().queries()).as("the PG was asked").isGreaterThan(queriesBefore);
    }

    @Test
    void aSignedCallbackSayingCanceledDoesNotCancelWhatThePgStillHolds() throws Exception {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String paymentId = confirm(port, order, "hint-cancel-" + order.orderId()).text("paymentId");
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");

        int status = signedWebhook(callback(order, "pk-" + order.orderId(), "CANCELED", 15_000));

        assertThat(status).isEqualTo(200);
        assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
        assertThat(pgState(order)).isEqualTo("DONE");
    }

    @Test
    void aSignedCallbackForAPaymentWeDoNotKnowIsAcknowledged() throws Exception {
        OrderCreated unknown = new OrderCreated(UUID.randomUUID(), member(), 15_000, "KRW", "never ordered here");

        assertThat(signedWebhook(callback(unknown, "pk-nobody", "DONE", 15_000))).isEqualTo(200);
        assertThat(signedWebhook("{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"orderId\":\"not-ours\","
                + "\"paymentKey\":\"pk-x\",\"status\":\"DONE\"}}")).isEqualTo(200);
    }

    private static String callback(OrderCreated order, String paymentKey, String status, long amount) {
        return "{\"eventType\":\"PAYMENT_STATUS_CHANGED\",\"data\":{\"orderId\":\"" + order.orderId()
                + "\",\"paymentKey\":\"" + paymentKey + "\",\"status\":\"" + status + "\",\"totalAmount\":" + amount
                + ",\"lastTransactionKey\":\"tx-forged\"}}";
    }

    private int signedWebhook(String body) throws Exception {
        long now = java.time.Instant.now().getEpochSecond();
        return webhook(body, now, dev.payments.pgsim.callback.CallbackSignature.sign("test_whsec_simulator", now, body));
    }

    private int webhook(String body, long timestamp, String signature) throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/api/pg/webhooks"))
                .header("Content-Type", "application/json")
                .header("X-PG-Timestamp", String.valueOf(timestamp))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (signature != null) {
            request.header("X-PG-Signature", signature);
        }
        return java.net.http.HttpClient.newHttpClient()
                .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private String pgState(OrderCreated order) {
        return simulator().ledger().paymentForOrder(order.orderId().toString()).orElseThrow().status().name();
    }

    private String paymentStatus(String paymentId) {
        return jdbc.sql("SELECT status FROM payments WHERE payment_id = CAST(:id AS uuid)").param("id", paymentId)
                .query(String.class).single();
    }

    private long countPayments() {
        return jdbc.sql("SELECT count(*) FROM payments").query(Long.class).single();
    }

    private static String member() {
        return "member-" + UUID.randomUUID();
    }

    static List<Response> concurrently(int count, Callable<Response> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(count);
        try {
            List<Future<Response>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                futures.add(pool.submit(call));
            }
            List<Response> responses = new ArrayList<>();
            for (Future<Response> future : futures) {
                responses.add(future.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    static List<ConsumerRecord<String, String>> paymentEvents(String orderId, int expected) {
        List<ConsumerRecord<String, String>> found = TestTopic.named(Topics.PAYMENT_EVENTS)
                .read(record -> orderId.equals(record.key()), expected, Duration.ofSeconds(30));
        assertThat(found).hasSizeGreaterThanOrEqualTo(expected);
        return found;
    }

    static String header(ConsumerRecord<String, String> record, String name) {
        return TestTopic.header(record, name);
    }


    @Test
    void theServedOpenApiDocumentIsTheCommittedOne() {
        CommittedApiDocument.assertServedIsCommitted("payment-service", port);
    }

    /**
     * A consumer of payment.events in another consumer group, as order- or notification-service would be: Spring
     * Kafka's listener observation, the super user's login (payment-service's principal may not read its own topic).
     */
    @TestConfiguration
    static class Downstream {

        // static: the tracer is built from the exporters, and must not wait for this configuration's instance
        @Bean
        static InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean
        static ConcurrentKafkaListenerContainerFactory<String, String> downstreamConsumers() {
            Map<String, Object> client = new HashMap<>(SharedTestInfrastructure.kafkaClientProperties());
            client.put(ConsumerConfig.GROUP_ID_CONFIG, "span-tree-downstream");
            client.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            var factory = new ConcurrentKafkaListenerContainerFactory<String, String>();
            factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(client, new StringDeserializer(), new StringDeserializer()));
            factory.getContainerProperties().setObservationEnabled(true);
            return factory;
        }

        @Bean
        static DownstreamConsumer downstreamConsumer(ObjectProvider<Tracer> tracer) {
            return new DownstreamConsumer(tracer);
        }
    }

    static class DownstreamConsumer {

        /** Event id -> the span the consumer ran in. */
        final Map<String, String> consumerSpans = new ConcurrentHashMap<>();
        private final ObjectProvider<Tracer> tracer;

        DownstreamConsumer(ObjectProvider<Tracer> tracer) {
            this.tracer = tracer;
        }

        @KafkaListener(topics = Topics.PAYMENT_EVENTS, containerFactory = "downstreamConsumers")
        void on(ConsumerRecord<String, String> record) {
            Span span = tracer.getObject().currentSpan();
            String eventId = TestTopic.header(record, Topics.HEADER_EVENT_ID);
            if (span != null && eventId != null) {
                consumerSpans.put(eventId, span.context().spanId());
            }
        }
    }
}
