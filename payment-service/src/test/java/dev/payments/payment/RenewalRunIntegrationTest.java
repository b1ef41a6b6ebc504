package dev.payments.payment;

import dev.payments.payment.application.renewal.RenewSubscriptions;
import dev.payments.payment.domain.renewal.RenewalRun;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.ConnectionFault;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import dev.payments.pgsim.ledger.Transaction;
import dev.payments.pgsim.ledger.TransactionType;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static dev.payments.payment.support.PaymentTestSupport.get;
import static dev.payments.payment.support.PaymentTestSupport.issueBillingKey;
import static dev.payments.payment.support.PaymentTestSupport.memberToken;
import static dev.payments.payment.support.PaymentTestSupport.postJson;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The renewal run against real PostgreSQL, Kafka and the simulator's billing-key API: overlapping runs charge
 * a period once, a crash between the PG and TX-2 charges nothing twice, and an open breaker stops a run that the next
 * run resumes. Timeouts and the breaker's open wait are scaled down to test time.
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payment.renewal.schedule=-",
        "payment.renewal.workers=4",
        "payment.renewal.retry-nothing-charged=0s",
        // Dunning in seconds instead of days (default 1 d and 3 d after the first decline): the same rule, testable.
        "payment.renewal.dunning-retries=2s,4s",
        "payment.renewal.charge-deadline=3s",
        "resilience4j.bulkhead.instances.pg-renewal.max-concurrent-calls=4",
        "pg.client.confirm-read-timeout=1s",
        "pg.client.query-timeout=500ms",
        "resilience4j.circuitbreaker.instances.pg-approve.wait-duration-in-open-state=2s",
        "resilience4j.retry.instances.pg-approve.wait-duration=20ms"})
class RenewalRunIntegrationTest extends PaymentServiceTestBase {

    private static final ZoneId ZONE = ZoneId.of("Asia/Seoul");

    @Autowired
    RenewSubscriptions renew;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_renewal_it");
    }

    @BeforeEach
    void noSubscriptionsAndEmptyBooks() {
        jdbc.sql("DELETE FROM renewal_attempts").update();
        jdbc.sql("DELETE FROM renewal_charges").update();
        jdbc.sql("DELETE FROM subscriptions").update();
        jdbc.sql("DELETE FROM renewal_runs").update();
        jdbc.sql("DROP TRIGGER IF EXISTS crash_at_tx2 ON renewal_charges").update();
        simulator().resetLedger();
    }

    @Test
    void aMemberSubscribesWithTheirBillingKeyAndOnlyTheySeeIt() {
        String key = issueBillingKey("member-sub");

        Response created = postJson(port, "/api/subscriptions", memberToken("member-sub"),
                "{\"plan\":\"Monthly\",\"amount\":9900,\"currency\":\"KRW\",\"billingKey\":\"" + key + "\"}");
        Response refused = postJson(port, "/api/subscriptions", memberToken("member-sub"),
                "{\"plan\":\"Monthly\",\"amount\":0,\"currency\":\"KRW\",\"billingKey\":\"" + key + "\"}");
        Response anonymous = postJson(port, "/api/subscriptions", null,
                "{\"plan\":\"Monthly\",\"amount\":9900,\"currency\":\"KRW\",\"billingKey\":\"" + key + "\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.text("nextPeriod")).isEqualTo(LocalDate.now(ZONE).toString());
        assertThat(created.text("status")).isEqualTo("ACTIVE");
        String path = "/api/subscriptions/" + created.text("subscriptionId");
        assertThat(get(port, path, memberToken("member-sub")).status()).isEqualTo(200);
        assertThat(get(port, path, memberToken("member-other")).status()).isEqualTo(404);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.contentType()).contains("application/problem+json");
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(subscriptions()).isEqualTo(1);
    }

    @Test
    void twoRunsAtOnceChargeEveryPeriodExactlyOnce() {
        List<UUID> subscribed = subscribe(40, 9_900);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(100)));

        // One run by an operator over HTTP, one by the scheduler's entry point, at the same moment.
        Response operatorRun = PaymentTestSupport.post(port, "/api/renewals/runs",
                PaymentTestSupport.operatorToken("renewals:run"));
        RenewalRun scheduled = renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "test"));
        assertThat(operatorRun.status()).isEqualTo(202);
        RenewalRun byOperator = awaitEnded(UUID.fromString(operatorRun.text("id")));

        assertThat(List.of(scheduled.outcome(), byOperator.outcome())).containsOnly(RenewalRun.Outcome.COMPLETED);
        assertThat(scheduled.counts().charged() + byOperator.counts().charged()).isEqualTo(40);
        assertThat(pgApprovalsBySubscription()).containsOnlyKeys(subscribed).allSatisfy((id, n) -> assertThat(n).isOne());
        assertThat(pgApprovals()).isEqualTo(40);
        assertThat(paidThroughNextMonth()).isEqualTo(40);

        // A third run the same day finds every period charged: nothing is sent to the PG.
        long confirms = simulator().stats().confirmsReceived();
        RenewalRun again = renew.execute(renew.begin(RenewalRun.Trigger.OPERATOR, "test"));
        assertThat(again.counts().due()).isZero();
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(confirms);
        Response record = get(port, "/api/renewals/runs/" + again.id(), PaymentTestSupport.operatorToken("renewals:read"));
        assertThat(record.status()).isEqualTo(200);
        assertThat(record.text("outcome")).isEqualTo("COMPLETED");
        assertThat(record.text("endedAt")).isNotNull();
    }

    @Test
    void aCrashBetweenThePgAndTx2ChargesNothingTwiceAndTheSettledPaymentPaysThePeriod() {
        List<UUID> subscribed = subscribe(6, 5_000);
        // The process "dies" after the PG charged and before TX-2 commits: TX-2 is rolled back whole, as by a kill -9.
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION crash_at_tx2() RETURNS trigger AS $$
                BEGIN RAISE EXCEPTION 'simulated crash before TX-2 commits'; END $$ LANGUAGE plpgsql
                """).update();
        jdbc.sql("""
                CREATE TRIGGER crash_at_tx2 BEFORE UPDATE ON renewal_charges FOR EACH ROW
                WHEN (OLD.state = 'CHARGING') EXECUTE FUNCTION crash_at_tx2()
                """).update();

        RenewalRun crashed = renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "test"));

        assertThat(crashed.counts().unknown()).isEqualTo(6);
        assertThat(pgApprovals()).isEqualTo(6);
        assertThat(paymentsIn("REQUESTED")).hasSize(6);
        jdbc.sql("DROP TRIGGER crash_at_tx2 ON renewal_charges").update();

        // Restarted: the periods wait for their payments, so nothing is charged again.
        RenewalRun restarted = renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "test"));
        assertThat(restarted.counts().charged()).isZero();
        assertThat(pgApprovals()).isEqualTo(6);

        // Reconciliation settles the stale REQUESTED payments through the sync: the PG says DONE, and the period still
        // waits for that payment, so it is kept (APPROVED), not compensated.
        for (UUID payment : paymentsIn("REQUESTED")) {
            Response synced = PaymentTestSupport.sync(port, payment.toString());
            assertThat(synced.status()).isEqualTo(200);
            assertThat(synced.body().path("payment").path("status").asText()).isEqualTo("APPROVED");
        }
        RenewalRun resumed = renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "test"));

        assertThat(resumed.outcome()).isEqualTo(RenewalRun.Outcome.COMPLETED);
        assertThat(paidThroughNextMonth()).isEqualTo(6);
        assertThat(pgApprovalsBySubscription()).containsOnlyKeys(subscribed).allSatisfy((id, n) -> assertThat(n).isOne());
        assertThat(simulator().ledger().transactions()).noneMatch(t -> t.type() == TransactionType.CANCEL);
    }

    @Test
    void anOpenBreakerStopsTheRunAndTheNextRunResumesWhereItStopped() {
        List<UUID> subscribed = subscribe(30, 7_000);
        simulator().faults().set(FaultSpec.none(Operation.ALL)
                .withConnectionFault(new ConnectionFault(ConnectionFault.Mode.REFUSE, 1.0)));

        RenewalRun stopped = renew.execute(renew.begin(RenewalRun.Trigger.SCHEDULE, "test"));

        assertThat(stopped.outcome()).isEqualTo(RenewalRun.Outcome.STOPPED_BREAKER_OPEN);
        assertThat(stopped.counts().charged()).isZero();
        assertThat(stopped.counts().remaining()).isPositive();
        assertThat(breakers.circuitBreaker("pg-approve").getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(pgApprovals()).isZero();
        assertThat(paymentsIn("FAILED")).isNotEmpty();

        simulator().faults().reset();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> breakers.circuitBreaker("pg-approve").getState() == CircuitBreaker.State.HALF_OPEN);
        RenewalRun resumed = renew.execute(renew.begin(RenewalRun.Trigger.OPERATOR, "test"));

        assertThat(resumed.outcome()).isEqualTo(RenewalRun.Outcome.COMPLETED);
        assertThat(resumed.counts().charged()).isEqualTo(30);
        assertThat(resumed.counts().remaining()).isZero();
        assertThat(pgApprovalsBySubscription()).containsOnlyKeys(subscribed).allSatisfy((id, n) -> assertThat(n).isOne());
        assertThat(paidThroughNextMonth()).isEqualTo(30);
    }

    @Test
    void aDeclinedPeriodIsChargedAgainByTheDunningRulesUntilGivenUpAndAMembersCancelStopsIt() {
        String stays = "member-dunning-" + UUID.randomUUID();
        String leaves = "member-dunning-" + UUID.randomUUID();
        UUID staying = subscribeAs(stays, 7_700);
        UUID leaving = subscribeAs(leaves, 7_700);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withDecline(1.0, DeclineReason.REJECT_CARD_PAYMENT));

        RenewalRun first = run();
        assertThat(first.counts().declined()).isEqualTo(2);
        // Not again before the first retry is due (2 s after the first decline): nothing reaches the PG.
        long received = simulator().stats().confirmsReceived();
        assertThat(run().counts().due()).isZero();
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(received);

        // One member cancels while their period waits for its retry: it is stopped, never charged again.
        Response byOther = postJson(port, "/api/subscriptions/" + leaving + "/cancel", memberToken(stays), "{}");
        Response canceled = postJson(port, "/api/subscriptions/" + leaving + "/cancel", memberToken(leaves), "{}");
        Response again = postJson(port, "/api/subscriptions/" + leaving + "/cancel", memberToken(leaves), "{}");
        assertThat(byOther.status()).isEqualTo(404);
        assertThat(canceled.status()).isEqualTo(200);
        assertThat(canceled.text("status")).isEqualTo("CANCELED");
        assertThat(again.status()).isEqualTo(200);
        assertThat(chargeState(leaving)).isEqualTo("CANCELED");

        // The other period: charged again 2 s and 4 s after its first decline; the third decline gives it up.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> run() != null && "GAVE_UP".equals(chargeState(staying)));
        assertThat(attempts(staying)).isEqualTo(3);
        assertThat(attempts(leaving)).isOne();
        assertThat(subscriptionStatus(stays, staying)).isEqualTo("PAST_DUE");
        assertThat(subscriptionStatus(leaves, leaving)).isEqualTo("CANCELED");

        // Past every retry time: neither period is sent to the PG again.
        received = simulator().stats().confirmsReceived();
        RenewalRun after = run();
        assertThat(after.counts().due()).isZero();
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(received);
        assertThat(pgApprovals()).isZero();
    }

    private RenewalRun run() {
        return renew.execute(renew.begin(RenewalRun.Trigger.OPERATOR, "test"));
    }

    private UUID subscribeAs(String member, long amount) {
        Response response = postJson(port, "/api/subscriptions", memberToken(member),
                "{\"plan\":\"Monthly\",\"amount\":" + amount + ",\"currency\":\"KRW\",\"billingKey\":\""
                        + issueBillingKey(member) + "\"}");
        assertThat(response.status()).isEqualTo(201);
        return UUID.fromString(response.text("subscriptionId"));
    }

    private String chargeState(UUID subscription) {
        return jdbc.sql("SELECT state FROM renewal_charges WHERE subscription_id = :id").param("id", subscription)
                .query(String.class).single();
    }

    private long attempts(UUID subscription) {
        return jdbc.sql("SELECT count(*) FROM renewal_attempts WHERE subscription_id = :id").param("id", subscription)
                .query(Long.class).single();
    }

    private String subscriptionStatus(String member, UUID subscription) {
        return get(port, "/api/subscriptions/" + subscription, memberToken(member)).text("status");
    }

    private List<UUID> subscribe(int count, long amount) {
        List<CompletableFuture<UUID>> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String member = "member-renew-" + UUID.randomUUID();
            created.add(CompletableFuture.supplyAsync(() -> subscribeAs(member, amount)));
        }
        return created.stream().map(CompletableFuture::join).toList();
    }

    private RenewalRun awaitEnded(UUID runId) {
        await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.sql(
                "SELECT ended_at IS NOT NULL FROM renewal_runs WHERE run_id = :id").param("id", runId)
                .query(Boolean.class).single());
        Response record = get(port, "/api/renewals/runs/" + runId, PaymentTestSupport.operatorToken("renewals:read"));
        return new RenewalRun(runId, RenewalRun.Trigger.valueOf(record.text("trigger")), record.text("triggeredBy"),
                java.time.Instant.parse(record.text("startedAt")), java.time.Instant.parse(record.text("endedAt")),
                RenewalRun.Outcome.valueOf(record.text("outcome")),
                new RenewalRun.Counts(record.body().path("counts").path("due").asLong(),
                        record.body().path("counts").path("charged").asLong(),
                        record.body().path("counts").path("declined").asLong(),
                        record.body().path("counts").path("unknown").asLong(),
                        record.body().path("counts").path("failed").asLong(),
                        record.body().path("counts").path("remaining").asLong()));
    }

    /** PG approvals per subscription, mapped through the order id of every attempt we recorded. */
    private Map<UUID, Long> pgApprovalsBySubscription() {
        Map<String, UUID> subscriptionByOrder = jdbc.sql("""
                        SELECT p.order_id, a.subscription_id FROM renewal_attempts a
                        JOIN payments p ON p.payment_id = a.payment_id
                        """)
                .query((rs, i) -> Map.entry(rs.getString("order_id"), rs.getObject("subscription_id", UUID.class)))
                .list().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        return simulator().ledger().transactions().stream()
                .filter(t -> t.type() == TransactionType.APPROVE)
                .map(Transaction::orderId)
                .collect(Collectors.groupingBy(order -> subscriptionByOrder.getOrDefault(order, new UUID(0, 0)),
                        Collectors.counting()));
    }

    private long pgApprovals() {
        return simulator().ledger().transactions().stream().filter(t -> t.type() == TransactionType.APPROVE).count();
    }

    private long paidThroughNextMonth() {
        return jdbc.sql("SELECT count(*) FROM subscriptions WHERE next_period = :next")
                .param("next", LocalDate.now(ZONE).plusMonths(1)).query(Long.class).single();
    }

    private long subscriptions() {
        return jdbc.sql("SELECT count(*) FROM subscriptions").query(Long.class).single();
    }

    private List<UUID> paymentsIn(String status) {
        return jdbc.sql("""
                        SELECT p.payment_id FROM payments p JOIN renewal_attempts a ON a.payment_id = p.payment_id
                        WHERE p.status = :status
                        """)
                .param("status", status).query(UUID.class).list();
    }
}
