package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.testsupport.infra.TestTopic;
import dev.payments.payment.adapter.in.schedule.SettleRefunds;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.Cancel;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.memberToken;
import static dev.payments.payment.support.PaymentTestSupport.operatorToken;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Partial refunds through real HTTP, PostgreSQL, Kafka and the PG simulator (docs/refunds.md): the database keeps the
 * refunds of a payment within what was approved, refunds in flight included; a lost answer is UNKNOWN, answered as such
 * to a retry of the same key, and settled from the PG's cancels, never sent again; a late booking is settled too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.query-timeout=1s",
        "pg.client.cancel-timeout=1s",
        "payment.approval.per-member-per-minute=1000",
        // The PG not showing a refund's cancel 3 s after its request means it never booked it (60 s in production).
        "payment.approval.not-found-is-final-after=3s",
        // The scheduled settle stays out of the way (the tests call it, or the sync, themselves); it takes refunds
        // unsettled for 1 s (20 s in production).
        "payment.refunds.settle-every=1h",
        "payment.refunds.settle-after=1s"})
class RefundPaymentIntegrationTest extends PaymentServiceTestBase {

    @org.springframework.beans.factory.annotation.Autowired
    SettleRefunds settleRefunds;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_refund_it");
    }

    @Test
    void partialRefundsGiveBackPartsUntilNothingIsLeftAndTheRestIsRefused() {
        OrderCreated order = orderCreated(jdbc, member(), 10_000);
        String paymentId = confirm(port, order, "pay-" + order.orderId()).text("paymentId");

        Response first = refund(order.memberId(), paymentId, "r1-" + paymentId, 3_000, "one item returned");
        Response second = refund(order.memberId(), paymentId, "r2-" + paymentId, 2_000, null);
        long cancelsBefore = simulator().stats().cancels();
        Response over = refund(order.memberId(), paymentId, "r3-" + paymentId, 5_001, null);

        assertThat(first.status()).as(first.body().toString()).isEqualTo(200);
        assertThat(first.text("status")).isEqualTo("SUCCEEDED");
        assertThat(first.body().get("paymentRefundable").asLong()).isEqualTo(7_000);
        assertThat(second.status()).isEqualTo(200);
        assertThat(second.body().get("paymentRefunded").asLong()).isEqualTo(5_000);
        assertThat(over.status()).isEqualTo(409);
        assertThat(over.text("code")).isEqualTo("REFUND_EXCEEDS_REFUNDABLE");
        assertThat(over.body().get("refundable").asLong()).isEqualTo(5_000);
        assertThat(simulator().stats().cancels()).as("the PG is never asked for more than is refundable")
                .isEqualTo(cancelsBefore);
        Response payment = PaymentTestSupport.get(port, "/api/payments/" + paymentId, memberToken(order.memberId()));
        assertThat(payment.text("status")).isEqualTo("APPROVED");
        assertThat(payment.body().get("refundedAmount").asLong()).isEqualTo(5_000);
        assertThat(payment.body().get("refundableAmount").asLong()).isEqualTo(5_000);
        assertThat(pgCancels(order)).containsExactly(3_000L, 2_000L);
        assertThat(eventTypes(order, 6)).containsExactly("PaymentRequested", "PaymentApproved", "RefundRequested",
                "RefundSucceeded", "RefundRequested", "RefundSucceeded");
        // The sync sees a PARTIAL_CANCELED payment at the PG whose cancels are all our refunds: nothing to change.
        Response synced = PaymentTestSupport.sync(port, paymentId);
        assertThat(synced.text("action")).isEqualTo("NONE");
        // Another member's payment is one that does not exist.
        assertThat(refund(member(), paymentId, "x-" + paymentId, 1, null).status()).isEqualTo(404);
    }

    @Test
    void refundsRacingPastTheApprovedAmountNeverReachThePgTogether() throws Exception {
        OrderCreated order = orderCreated(jdbc, member(), 10_000);
        String paymentId = confirm(port, order, "pay-" + order.orderId()).text("paymentId");
        // The PG takes a while, so every refund is in flight at once: only what is reserved counts.
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withLatency(Latency.fixed(300)));
        int racers = 8;
        ExecutorService clients = Executors.newFixedThreadPool(racers);
        List<Response> answers = new ArrayList<>();
        try {
            List<Future<Response>> racing = new ArrayList<>();
            for (int i = 0; i < racers; i++) {
                String key = "race-" + i + "-" + paymentId;
                Callable<Response> call = () -> refund(order.memberId(), paymentId, key, 6_000, null);
                racing.add(clients.submit(call));
            }
            for (Future<Response> answer : racing) {
                answers.add(answer.get(30, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
        }

        assertThat(answers).filteredOn(a -> a.status() == 200).as(answers.toString()).hasSize(1);
        assertThat(answers).filteredOn(a -> a.status() == 409)
                .allSatisfy(a -> assertThat(a.text("code")).isEqualTo("REFUND_EXCEEDS_REFUNDABLE"))
                .hasSize(racers - 1);
        assertThat(jdbc.sql("SELECT count(*) FROM refunds WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(Long.class).single()).as("one refund record, the rest refused").isEqualTo(1);
        assertThat(pgCancels(order)).containsExactly(6_000L);
        assertThat(refundAmounts(paymentId)).containsExactly(6_000L, 0L);
    }

    @Test
    void aLostRefundAnswerIsUnknownARetryOfTheKeySendsNothingAndTheSyncSettlesItFromThePgsCancels() {
        OrderCreated order = orderCreated(jdbc, member(), 10_000);
        String paymentId = confirm(port, order, "pay-" + order.orderId()).text("paymentId");
        // The PG books the cancel and the answer is lost; the status query after it fails too.
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withDropResponse(1.0, DropMode.RESET),
                FaultSpec.none(Operation.QUERY).withErrorRate(1.0).withErrorStatus(503));
        String key = "lost-" + paymentId;

        Response lost = refund(order.memberId(), paymentId, key, 4_000, "damaged");
        long cancelsAtPg = pgCancels(order).size();
        Response retried = refund(order.memberId(), paymentId, key, 4_000, "damaged");
        Response another = refund(order.memberId(), paymentId, "other-" + paymentId, 6_001, null);

        assertThat(lost.status()).as(lost.body().toString()).isEqualTo(202);
        assertThat(lost.text("status")).isEqualTo("UNKNOWN");
        assertThat(cancelsAtPg).as("the PG did book it").isEqualTo(1);
        assertThat(retried.status()).isEqualTo(202);
        assertThat(retried.text("refundId")).isEqualTo(lost.text("refundId"));
        assertThat(retried.text("status")).isEqualTo("UNKNOWN");
        assertThat(pgCancels(order)).as("the retry sent nothing").hasSize(1);
        assertThat(another.status()).as("the unknown refund still holds its amount").isEqualTo(409);
        assertThat(refundAmounts(paymentId)).containsExactly(0L, 4_000L);

        simulator().faults().reset();
        // payment-service's own refund settle (a scheduled job, one replica per cycle) finds it and syncs the payment.
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            settleRefunds.settleDue();
            return "SUCCEEDED".equals(refundStatus(lost.text("refundId")));
        });
        assertThat(refundAmounts(paymentId)).containsExactly(4_000L, 0L);
        assertThat(pgCancels(order)).containsExactly(4_000L);
        Response answered = refund(order.memberId(), paymentId, key, 4_000, "damaged");
        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.text("status")).isEqualTo("SUCCEEDED");
        assertThat(eventTypes(order, 5)).containsExactly("PaymentRequested", "PaymentApproved", "RefundRequested",
                "RefundUnknown", "RefundSucceeded");
    }

    @Test
    void aRefundThePgBookedLateIsSettledAfterItWasFoundNeverBooked() {
        OrderCreated order = orderCreated(jdbc, member(), 10_000);
        String paymentId = confirm(port, order, "pay-" + order.orderId()).text("paymentId");
        // A 5xx after which nothing is on the PG's books (yet), and the query that follows fails.
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withErrorRate(1.0).withErrorStatus(503),
                FaultSpec.none(Operation.QUERY).withErrorRate(1.0).withErrorStatus(503));
        Response unknown = refund(order.memberId(), paymentId, "late-" + paymentId, 2_500, null);
        assertThat(unknown.text("status")).as(unknown.body().toString()).isEqualTo("UNKNOWN");
        simulator().faults().reset();

        // Past not-found-is-final-after the PG still shows no cancel of it: never booked, the reservation released.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).until(() -> {
            PaymentTestSupport.sync(port, paymentId);
            return "FAILED".equals(refundStatus(unknown.text("refundId")));
        });
        assertThat(refundAmounts(paymentId)).containsExactly(0L, 0L);

        // Then the PG books it after all (its back end processed the request late), under the refund's reason.
        String reason = jdbc.sql("SELECT 'refund ' || CAST(refund_id AS text) || ': refund' FROM refunds WHERE refund_id = CAST(:id AS uuid)")
                .param("id", unknown.text("refundId")).query(String.class).single();
        assertThat(PaymentTestSupport.cancelAtPg("pk-" + order.orderId(), 2_500, reason, unknown.text("refundId")))
                .isEqualTo(200);
        Response synced = PaymentTestSupport.sync(port, paymentId);

        assertThat(synced.status()).isEqualTo(200);
        assertThat(synced.text("action")).isEqualTo("NONE");
        assertThat(refundStatus(unknown.text("refundId"))).isEqualTo("SUCCEEDED");
        assertThat(refundAmounts(paymentId)).containsExactly(2_500L, 0L);
        assertThat(eventTypes(order, 6)).containsExactly("PaymentRequested", "PaymentApproved", "RefundRequested",
                "RefundUnknown", "RefundFailed", "RefundSucceeded");
    }

    @Test
    void anOperatorRefundsWithTheScopeAndAReasonAndIsRecordedInTheAuditTrail() {
        OrderCreated order = orderCreated(jdbc, member(), 10_000);
        String paymentId = confirm(port, order, "pay-" + order.orderId()).text("paymentId");
        String path = "/api/payments/" + paymentId + "/operator-refunds";

        Response memberTried = post(path, memberToken(order.memberId()), "k-1", "{\"amount\":1000,\"reason\":\"r\"}");
        Response syncScope = post(path, operatorToken("payments:sync"), "k-1", "{\"amount\":1000,\"reason\":\"r\"}");
        Response noReason = post(path, operatorToken("payments:refund"), "k-1", "{\"amount\":1000}");
        Response done = post(path, operatorToken("payments:refund"), "k-1",
                "{\"amount\":1000,\"reason\":\"goodwill for a late delivery\"}");

        assertThat(memberTried.status()).isEqualTo(403);
        assertThat(syncScope.status()).isEqualTo(403);
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.text("code")).isEqualTo("REASON_REQUIRED");
        assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
        assertThat(done.text("requester")).isEqualTo("OPERATOR");
        assertThat(pgCancels(order)).containsExactly(1_000L);

        Response listed = PaymentTestSupport.get(port, path, operatorToken("payments:read"));
        assertThat(listed.status()).as(listed.body().toString()).isEqualTo(200);
        assertThat(listed.body().path("refunded").asLong()).isEqualTo(1_000);
        assertThat(listed.body().path("refundable").asLong()).isEqualTo(9_000);
        assertThat(listed.body().path("refunds")).singleElement().satisfies(refund -> {
            assertThat(refund.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(refund.path("reason").asText()).isEqualTo("goodwill for a late delivery");
        });
        assertThat(PaymentTestSupport.get(port, path, memberToken(order.memberId())).status())
                .as("the member reads their own refunds at /refunds, not any payment's").isEqualTo(403);
        assertThat(PaymentTestSupport.get(port, "/api/payments/" + UUID.randomUUID() + "/operator-refunds",
                operatorToken("payments:read")).text("code")).isEqualTo("PAYMENT_NOT_FOUND");
        assertThat(jdbc.sql("""
                        SELECT count(*) FROM operator_action WHERE subject = 'operator-1' AND object_id LIKE :id
                          AND reason = 'goodwill for a late delivery' AND result = 'DONE'
                        """).param("id", "%" + paymentId + "%").query(Long.class).single())
                .as("who, what, why and the result, once per committed change: the reservation and the PG's answer")
                .isEqualTo(2);
    }

    @Test
    void aRenewalsPaymentIsRefundedInPartLikeAnyOther() {
        String member = member();
        String billingKey = PaymentTestSupport.issueBillingKey(member);
        Response subscribed = PaymentTestSupport.postJson(port, "/api/subscriptions", memberToken(member),
                "{\"plan\":\"Monthly\",\"amount\":9900,\"currency\":\"KRW\",\"billingKey\":\"" + billingKey + "\"}");
        assertThat(subscribed.status()).as(subscribed.body().toString()).isEqualTo(201);
        Response run = PaymentTestSupport.post(port, "/api/renewals/runs", operatorToken("renewals:run"));
        assertThat(run.status()).isEqualTo(202);
        String paymentId = await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("""
                        SELECT CAST(payment_id AS text) FROM payments
                        WHERE member_id = :member AND purpose = 'RENEWAL' AND status = 'APPROVED'""")
                .param("member", member).query(String.class).optional().orElse(null), java.util.Objects::nonNull);

        Response refunded = refund(member, paymentId, "renewal-refund-" + paymentId, 3_300, "pro-rata");

        assertThat(refunded.status()).as(refunded.body().toString()).isEqualTo(200);
        assertThat(refunded.body().get("paymentRefundable").asLong()).isEqualTo(6_600);
        String paymentKey = jdbc.sql("SELECT payment_key FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(String.class).single();
        assertThat(simulator().ledger().payment(paymentKey).orElseThrow().cancels()).extracting(Cancel::cancelAmount)
                .containsExactly(3_300L);
        String renewalOrder = jdbc.sql("SELECT CAST(order_id AS text) FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(String.class).single();
        List<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> events =
                ConfirmPaymentIntegrationTest.paymentEvents(renewalOrder, 4);
        assertThat(events).filteredOn(e -> "RefundSucceeded".equals(TestTopic.header(e, Topics.HEADER_EVENT_TYPE)))
                .singleElement().satisfies(e -> assertThat(e.value()).containsPattern("\"purpose\":\\s*\"RENEWAL\""));
    }

    private Response refund(String memberId, String paymentId, String key, long amount, String reason) {
        String body = "{\"amount\":" + amount + (reason == null ? "" : ",\"reason\":\"" + reason + "\"") + "}";
        return post("/api/payments/" + paymentId + "/refunds", memberToken(memberId), key, body);
    }

    private Response post(String path, String bearer, String key, String body) {
        return PaymentTestSupport.postJson(port, path, bearer, body, key);
    }

    private List<Long> pgCancels(OrderCreated order) {
        return simulator().ledger().paymentForOrder(order.orderId().toString()).orElseThrow().cancels().stream()
                .map(Cancel::cancelAmount).toList();
    }

    private List<Long> refundAmounts(String paymentId) {
        return jdbc.sql("SELECT refunded_amount, refund_reserved FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query((rs, i) -> List.of(rs.getLong(1), rs.getLong(2))).single();
    }

    private String refundStatus(String refundId) {
        return jdbc.sql("SELECT status FROM refunds WHERE refund_id = CAST(:id AS uuid)")
                .param("id", refundId).query(String.class).single();
    }

    private List<String> eventTypes(OrderCreated order, int count) {
        String key = order.orderId().toString();
        ConfirmPaymentIntegrationTest.paymentEvents(key, count);
        return TestTopic.named(Topics.PAYMENT_EVENTS).readAll(record -> key.equals(record.key())).stream()
                .map(record -> TestTopic.header(record, Topics.HEADER_EVENT_TYPE)).toList();
    }

    private static String member() {
        return "member-" + UUID.randomUUID();
    }
}
