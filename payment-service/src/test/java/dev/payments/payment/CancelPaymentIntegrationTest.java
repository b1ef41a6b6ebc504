package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.testsupport.infra.TestTopic;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.payments.payment.support.PaymentTestSupport.cancel;
import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member's cancel through real HTTP, PostgreSQL, Kafka and the PG simulator: an approved payment is refunded at the
 * PG; one whose outcome is unknown is given up, recorded as "customer told FAILED", and any charge the PG made is
 * cancelled (docs/decisions/payment-cancel.md).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.confirm-read-timeout=2s",
        "pg.client.query-timeout=1s",
        "payment.approval.deadline=5s",
        "payment.approval.per-member-per-minute=1000",
        // Few web threads, so a hung PG taking them all shows within one test; the web-thread budget in small (200 =
        // 150 approvals + 10 recovery + 40 reserved in production): 12 = 1 + 10 + 1.
        "server.tomcat.threads.max=12",
        "resilience4j.bulkhead.instances.pg-approve.max-concurrent-calls=1",
        "payment.approval.reserved-web-threads=1",
        // A payment the PG has not seen 3 s after its request is FAILED (60 s in production): the late-booking case.
        "payment.approval.not-found-is-final-after=3s"})
class CancelPaymentIntegrationTest extends PaymentServiceTestBase {

    /** The confirm's answer is lost after the PG approved it, and the status query that follows fails. */
    private static final FaultSpec[] ANSWER_LOST_AND_PG_UNASKABLE = {
            FaultSpec.none(Operation.CONFIRM).withDropResponse(1.0, DropMode.RESET),
            FaultSpec.none(Operation.QUERY).withErrorRate(1.0).withErrorStatus(503)};

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_cancel_it");
    }

    @Test
    void anApprovedPaymentIsRefundedAtThePgOnceAndPublishedAsCanceled() {
        OrderCreated order = orderCreated(jdbc, member(), 15_000);
        String paymentId = confirm(port, order, "refund-" + order.orderId()).text("paymentId");
        long cancelsBefore = simulator().stats().cancels();

        Response refunded = cancel(port, order.memberId(), paymentId, "{\"reason\":\"changed my mind\"}");
        Response again = cancel(port, order.memberId(), paymentId, null);

        assertThat(refunded.status()).isEqualTo(200);
        assertThat(refunded.text("status")).isEqualTo("CANCELED");
        assertThat(refunded.text("failureCode")).isEqualTo("REFUNDED");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.text("status")).isEqualTo("CANCELED");
        assertThat(simulator().stats().cancels() - cancelsBefore).as("the repeat asks the PG nothing").isEqualTo(1);
        assertThat(pgState(order)).isEqualTo("CANCELED");
        assertThat(eventTypes(order, 4))
                .containsExactly("PaymentRequested", "PaymentApproved", "PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void aRefundWithTheLongestReasonAllowedGoesThrough() {
        OrderCreated order = orderCreated(jdbc, member(), 15_500);
        String paymentId = confirm(port, order, "refund-long-" + order.orderId()).text("paymentId");

        Response refunded = cancel(port, order.memberId(), paymentId, "{\"reason\":\"" + "r".repeat(200) + "\"}");

        assertThat(refunded.status()).as(refunded.body().toString()).isEqualTo(200);
        assertThat(pgState(order)).isEqualTo("CANCELED");
    }

    @Test
    void aPaymentStillBeingConfirmedIsNotCanceledAndItsConfirmIsAnsweredAsUsual() throws Exception {
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(1_500)));
        OrderCreated order = orderCreated(jdbc, member(), 16_500);
        ExecutorService client = Executors.newSingleThreadExecutor();
        try {
            Future<Response> confirming = client.submit(() -> confirm(port, order, "in-flight-" + order.orderId()));
            await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql(
                            "SELECT count(*) FROM payments WHERE order_id = :id AND status = 'REQUESTED'")
                    .param("id", order.orderId()).query(Long.class).single() == 1);
            String paymentId = jdbc.sql("SELECT CAST(payment_id AS text) FROM payments WHERE order_id = :id")
                    .param("id", order.orderId()).query(String.class).single();

            Response refused = cancel(port, order.memberId(), paymentId, null);

            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.text("code")).isEqualTo("PAYMENT_IN_FLIGHT");
            assertThat(refused.retryAfter()).isEqualTo("5");
            assertThat(confirming.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(paymentStatus(paymentId)).isEqualTo("APPROVED");
            assertThat(customerNotice(paymentId)).isEqualTo("APPROVED");
        } finally {
            client.shutdownNow();
        }
    }

    @Test
    void aRefundThePgDoesNotConfirmIsOwedDurablyAndTheSyncFinishesIt() {
        OrderCreated order = orderCreated(jdbc, member(), 16_000);
        String paymentId = confirm(port, order, "refund-owed-" + order.orderId()).text("paymentId");
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withErrorRate(1.0).withErrorStatus(503));

        Response requested = cancel(port, order.memberId(), paymentId, null);

        // The refund is a fact from now on, not a request the member has to repeat.
        assertThat(requested.status()).as(requested.body().toString()).isEqualTo(202);
        assertThat(requested.text("status")).isEqualTo("CANCEL_OWED");
        assertThat(paymentStatus(paymentId)).isEqualTo("CANCEL_OWED");
        assertThat(pgState(order)).isEqualTo("DONE");

        // What reconciliation's settler does with a CANCEL_OWED payment. The answer says where it broke, so the
        // settler never asks the PG itself: the cancel (money held, toward an incident; refused, so not retried) ...
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withErrorRate(1.0).withErrorStatus(403));
        Response cancelFails = PaymentTestSupport.sync(port, paymentId);
        assertThat(cancelFails.status()).as(cancelFails.body().toString()).isEqualTo(502);
        assertThat(cancelFails.text("code")).isEqualTo("PG_SYNC_FAILED");
        assertThat(cancelFails.text("stage")).isEqualTo("CANCEL");
        assertThat(cancelFails.text("pgState")).isEqualTo("DONE");
        // ... or the status query (the PG is down: an outage, never a failed cancel).
        simulator().faults().set(FaultSpec.none(Operation.QUERY).withErrorRate(1.0).withErrorStatus(503));
        Response pgDown = PaymentTestSupport.sync(port, paymentId);
        assertThat(pgDown.status()).as(pgDown.body().toString()).isEqualTo(502);
        assertThat(pgDown.text("stage")).isEqualTo("STATUS_QUERY");
        assertThat(pgDown.body().has("pgState")).isFalse();
        assertThat(paymentStatus(paymentId)).isEqualTo("CANCEL_OWED");

        simulator().faults().reset();
        Response synced = PaymentTestSupport.sync(port, paymentId);

        assertThat(synced.status()).isEqualTo(200);
        assertThat(synced.text("action")).isEqualTo("CANCELED");
        assertThat(paymentStatus(paymentId)).isEqualTo("CANCELED");
        assertThat(pgState(order)).isEqualTo("CANCELED");
        assertThat(eventTypes(order, 4))
                .containsExactly("PaymentRequested", "PaymentApproved", "PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void aLateBookingAfterWeSaidFailedIsCancelledAtThePgNotKept() {
        // The PG's front door takes the confirm and says nothing; its back end books it after we gave up on it.
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLateBooking(
                dev.payments.pgsim.fault.LateBooking.after(Duration.ofSeconds(8))
                        .withCallbackUrl("http://127.0.0.1:" + port + "/api/pg/webhooks")));
        OrderCreated order = orderCreated(jdbc, member(), 16_500);
        Response confirmed = confirm(port, order, "late-" + order.orderId());
        assertThat(confirmed.status()).isEqualTo(202);
        String paymentId = confirmed.text("paymentId");
        // The PG still has no record of it past not-found-is-final-after: nothing was charged, as far as anyone knows.
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() ->
                "FAILED".equals(PaymentTestSupport.sync(port, paymentId).body().path("payment").path("status").asText()));
        assertThat(customerNotice(paymentId)).isEqualTo("PENDING");

        // Then the PG books it and calls back: the charge must be returned, durably, not left standing.
        await().atMost(Duration.ofSeconds(40)).until(() -> "CANCELED".equals(paymentStatus(paymentId)));

        assertThat(pgState(order)).isEqualTo("CANCELED");
        assertThat(eventTypes(order, 5)).containsExactly("PaymentRequested", "PaymentUnknown", "PaymentFailed",
                "PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void givingUpOnAnUnknownPaymentIsRecordedAndTheChargeIsCancelledOnceThePgAnswers() {
        simulator().faults().set(ANSWER_LOST_AND_PG_UNASKABLE);
        OrderCreated order = orderCreated(jdbc, member(), 17_000);
        Response confirmed = confirm(port, order, "give-up-" + order.orderId());
        assertThat(confirmed.status()).isEqualTo(202);
        String paymentId = confirmed.text("paymentId");
        assertThat(pgState(order)).as("the PG took the money").isEqualTo("DONE");

        Response gaveUp = cancel(port, order.memberId(), paymentId, null);

        assertThat(gaveUp.status()).as("the PG cannot be asked yet").isEqualTo(202);
        assertThat(gaveUp.text("status")).isEqualTo("UNKNOWN");
        assertThat(gaveUp.text("customerNotice")).isEqualTo("FAILED");
        assertThat(customerNotice(paymentId)).isEqualTo("FAILED");
        assertThat(pgState(order)).isEqualTo("DONE");

        simulator().faults().reset();
        Response settled = cancel(port, order.memberId(), paymentId, null);

        assertThat(settled.status()).isEqualTo(200);
        assertThat(settled.text("status")).isEqualTo("CANCELED");
        assertThat(settled.text("failureCode")).isEqualTo("COMPENSATION");
        assertThat(pgState(order)).isEqualTo("CANCELED");
        assertThat(eventTypes(order, 4))
                .containsExactly("PaymentRequested", "PaymentUnknown", "PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void aPaymentThatChargedNothingOrBelongsToSomeoneElseIsNotCancelableAndNothingChanges() {
        OrderCreated order = orderCreated(jdbc, member(), 18_000);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withDecline(1.0, DeclineReason.EXCEED_MAX_CARD_LIMIT));
        String declined = confirm(port, order, "declined-" + order.orderId()).text("paymentId");
        simulator().faults().reset();
        OrderCreated other = orderCreated(jdbc, member(), 19_000);
        String approved = confirm(port, other, "approved-" + other.orderId()).text("paymentId");
        long cancelsBefore = simulator().stats().cancels();

        Response notCancelable = cancel(port, order.memberId(), declined, null);
        Response someoneElses = cancel(port, order.memberId(), approved, null);
        Response unknownPayment = cancel(port, order.memberId(), UUID.randomUUID().toString(), null);
        Response tooLong = cancel(port, other.memberId(), approved, "{\"reason\":\"" + "x".repeat(201) + "\"}");
        Response noMember = PaymentTestSupport.post(port, "/api/payments/" + approved + "/cancel", null);

        assertThat(notCancelable.status()).isEqualTo(409);
        assertThat(notCancelable.text("code")).isEqualTo("PAYMENT_NOT_CANCELABLE");
        assertThat(someoneElses.status()).isEqualTo(404);
        assertThat(someoneElses.text("code")).isEqualTo("PAYMENT_NOT_FOUND");
        assertThat(unknownPayment.status()).isEqualTo(404);
        assertThat(tooLong.status()).isEqualTo(400);
        assertThat(tooLong.contentType()).startsWith("application/problem+json");
        assertThat(noMember.status()).isEqualTo(401);
        assertThat(noMember.text("code")).isEqualTo("UNAUTHENTICATED");
        assertThat(paymentStatus(declined)).isEqualTo("DECLINED");
        assertThat(paymentStatus(approved)).isEqualTo("APPROVED");
        assertThat(simulator().stats().cancels()).isEqualTo(cancelsBefore);
    }

    @Test
    void aHungPgNeverTakesEveryWebThreadRecoveryCallsHaveTheirOwnBulkhead() throws Exception {
        List<OrderCreated> orders = new java.util.ArrayList<>();
        List<String> paymentIds = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) {
            OrderCreated order = orderCreated(jdbc, member(), 20_000 + i);
            orders.add(order);
            paymentIds.add(confirm(port, order, "hung-" + order.orderId()).text("paymentId"));
        }
        // Cancels and status queries hang; approvals would be refused by their own bulkhead and breaker, these not.
        simulator().faults().set(FaultSpec.none(Operation.CANCEL).withHang(true),
                FaultSpec.none(Operation.QUERY).withHang(true));
        ExecutorService members = Executors.newFixedThreadPool(16);
        try {
            List<Future<Response>> refunds = new java.util.ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String paymentId = paymentIds.get(i);
                String memberId = orders.get(i).memberId();
                refunds.add(members.submit(() -> cancel(port, memberId, paymentId, null)));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> simulator().stats().hangs() >= 4);

            // The rest of the API still answers while the PG holds its calls.
            Response read = PaymentTestSupport.get(port, "/api/payments/" + paymentIds.get(0),
                    PaymentTestSupport.memberToken(orders.get(0).memberId()), Duration.ofSeconds(3));

            assertThat(read.status()).isEqualTo(200);
            List<Response> owed = new java.util.ArrayList<>();
            simulator().faults().reset();
            for (Future<Response> refund : refunds) {
                Response answer = refund.get(60, TimeUnit.SECONDS);
                if (answer.status() != 200) {
                    owed.add(answer);
                }
            }
            // The refunds beyond the recovery bulkhead were not sent, but they are not lost: each is a cancel we owe,
            // which reconciliation's settler sends once the PG answers.
            assertThat(owed).as("refunds beyond the recovery bulkhead").isNotEmpty()
                    .allSatisfy(answer -> {
                        assertThat(answer.status()).isEqualTo(202);
                        assertThat(answer.text("status")).isEqualTo("CANCEL_OWED");
                    });
        } finally {
            members.shutdownNow();
        }
    }

    private String pgState(OrderCreated order) {
        return simulator().ledger().paymentForOrder(order.orderId().toString()).orElseThrow().status().name();
    }

    private List<String> eventTypes(OrderCreated order, int count) {
        String key = order.orderId().toString();
        ConfirmPaymentIntegrationTest.paymentEvents(key, count);
        // Everything on the topic for the order by now, so a duplicate is seen, not cut off at the count.
        return TestTopic.named(Topics.PAYMENT_EVENTS).readAll(record -> key.equals(record.key())).stream()
                .map(record -> TestTopic.header(record, Topics.HEADER_EVENT_TYPE)).toList();
    }

    private String paymentStatus(String paymentId) {
        return column("status", paymentId);
    }

    private String customerNotice(String paymentId) {
        return column("customer_notice", paymentId);
    }

    private String column(String column, String paymentId) {
        return jdbc.sql("SELECT " + column + " FROM payments WHERE payment_id = CAST(:id AS uuid)")
                .param("id", paymentId).query(String.class).single();
    }

    private static String member() {
        return "member-" + UUID.randomUUID();
    }
}
