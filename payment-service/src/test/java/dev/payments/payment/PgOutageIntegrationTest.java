package dev.payments.payment;

import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Field report 000's silent PG and 001's failing PG, with the seeds' breaker (window 20, minimum 10 calls, 50 %,
 * 3 half-open calls), the service's retry and reachability breaker, and timeouts scaled down to test time (read 1 s
 * instead of 15 s, open wait 3 s instead of 30 s).
 */
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "pg.client.confirm-read-timeout=1s",
        "pg.client.query-timeout=500ms",
        "payment.approval.deadline=3s",
        "resilience4j.circuitbreaker.instances.pg-approve.wait-duration-in-open-state=3s",
        "resilience4j.circuitbreaker.instances.pg-approve.slow-call-duration-threshold=900ms",
        // The service's backoff (500 ms, then 1 s): what a PG that is down must not make the breaker wait for.
        "resilience4j.retry.instances.pg-approve.wait-duration=500ms",
        // Open longer than the service's 1 s, so ten requests of a loaded test machine all fall inside it; no timer, as
        // one scheduled by an earlier test's opening outlives the reset between tests and would end a later opening.
        "resilience4j.circuitbreaker.instances.pg-reachability.wait-duration-in-open-state=10s",
        "resilience4j.circuitbreaker.instances.pg-reachability.automatic-transition-from-open-to-half-open-enabled=false",
        "payment.approval.per-member-per-minute=1000"})
class PgOutageIntegrationTest extends PaymentServiceTestBase {

    private static final String MEMBER = "member-outage";

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_outage_it");
    }

    @Test
    void aSilentPgOpensTheBreakerThenRequestsAreRefusedFastUntilItRecovers() {
        // Orders first: the refusals below must all fall inside the breaker's open wait.
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 33, i -> MEMBER, i -> 1_000);
        simulator().faults().set(FaultSpec.none(Operation.ALL).withHang(true));
        List<Response> slow = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            slow.add(confirm(port, orders.get(i), "silent-" + i));
        }
        assertThat(slow).allSatisfy(response -> {
            assertThat(response.status()).isEqualTo(202);
            assertThat(response.text("status")).isEqualTo("PENDING");
        });
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);

        long confirmsBefore = simulator().stats().confirmsReceived();
        long queriesBefore = simulator().stats().queries();
        long paymentsBefore = countPayments();
        List<Response> refused = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            refused.add(confirm(port, orders.get(10 + i), "refused-" + i));
        }

        assertThat(refused).allSatisfy(response -> {
            assertThat(response.status()).isEqualTo(503);
            assertThat(response.text("code")).isEqualTo("PG_UNAVAILABLE");
            assertThat(response.retryAfter()).isNotNull();
            assertThat(response.took()).isLessThan(Duration.ofMillis(500));
        });
        assertThat(simulator().stats().confirmsReceived()).isEqualTo(confirmsBefore);
        assertThat(simulator().stats().queries()).isEqualTo(queriesBefore);
        assertThat(countPayments()).isEqualTo(paymentsBefore);

        simulator().faults().reset();
        await().atMost(Duration.ofSeconds(10)).until(() -> breaker().getState() == CircuitBreaker.State.HALF_OPEN);
        for (int i = 0; i < 3; i++) {
            assertThat(confirm(port, orders.get(30 + i), "trial-" + i).status()).isEqualTo(200);
        }
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void serverErrorsAreRetriedCountOnceAndAPgFailingEveryAttemptIsNoLongerTried() {
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 10, i -> MEMBER, i -> 2_000);
        simulator().faults().set(FaultSpec.none(Operation.CONFIRM).withErrorRate(1.0));
        long errorsBefore = simulator().stats().serverErrors();

        for (int i = 0; i < 5; i++) {
            Response response = confirm(port, orders.get(i), "5xx-" + i);
            // 5xx may have been acted on by a real PG; the status query says NOT_FOUND -> never "failed" on a guess.
            assertThat(response.status()).isEqualTo(202);
        }
        // Three attempts each, one failure each for the approval breaker (001's pitfall: not three).
        assertThat(simulator().stats().serverErrors() - errorsBefore).isEqualTo(15);
        assertThat(breaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(5);
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);

        // 15 attempts in a row answered 5xx: the PG is down. These are refused at admission, before the database:
        // nothing sent, no payment written, the order still payable; each counts as a failure for the approval
        // breaker at once, so it opens without waiting for requests to reach the PG through TX-1.
        long paymentsBefore = countPayments();
        for (int i = 5; i < 10; i++) {
            Response response = confirm(port, orders.get(i), "5xx-" + i);
            assertThat(response.status()).as(response.body().toString()).isEqualTo(503);
            assertThat(response.text("code")).isEqualTo("PG_UNAVAILABLE");
            assertThat(response.retryAfter()).isNotNull();
        }
        assertThat(countPayments()).isEqualTo(paymentsBefore);
        assertThat(simulator().stats().serverErrors() - errorsBefore).isEqualTo(15);
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void aPgRefusingConnectionsOpensTheBreakerAfterOneAttemptPerRequestWithNoRetryWait() throws Exception {
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 22, i -> MEMBER, i -> 5_000);
        // A PG fails under a service that has been approving, not under its very first request.
        assertThat(confirm(port, orders.get(21), "before-down").status()).isEqualTo(200);
        simulator().faults().set(FaultSpec.none(Operation.ALL)
                .withConnectionFault(dev.payments.pgsim.fault.ConnectionFault.refuse()));
        double attemptsBefore = confirmAttempts();

        // As many at once as the bulkhead admits: the PG went down under them.
        ExecutorService clients = Executors.newFixedThreadPool(20);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            OrderCreated order = orders.get(i);
            String key = "down-" + i;
            answers.add(clients.submit(() -> confirm(port, order, key)));
        }
        // Failed (not sent: the PG refused the connection), or refused at admission by one that came after the PG
        // was known to be down.
        for (Future<Response> answer : answers) {
            Response response = answer.get(30, TimeUnit.SECONDS);
            assertThat(response.status()).as(response.body().toString()).isIn(502, 503);
            assertThat(response.text("code")).isEqualTo(response.status() == 502 ? "PAYMENT_FAILED" : "PG_UNAVAILABLE");
        }
        clients.shutdown();

        // Without the reachability breaker every request would make its three attempts (60) with the retry's backoff
        // between them before the approval breaker saw a failure. The 15th refused attempt in a row marks the PG down
        // and the requests waiting out a backoff end at once: 15 attempts plus at most one in flight for each other.
        assertThat(confirmAttempts() - attemptsBefore).isLessThanOrEqualTo(15 + 19);
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
        Response refused = confirm(port, orders.get(20), "down-20");
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.text("code")).isEqualTo("PG_UNAVAILABLE");
        assertThat(confirmAttempts() - attemptsBefore).isLessThanOrEqualTo(15 + 19);

        simulator().faults().reset();
        assertThat(orders.subList(0, 21)).allSatisfy(order ->
                assertThat(simulator().ledger().paymentForOrder(order.orderId().toString())).isEmpty());
    }

    @Test
    void aRefusedConnectionIsAKnownFailureNothingWasCharged() {
        simulator().faults().set(FaultSpec.none(Operation.ALL)
                .withConnectionFault(new dev.payments.pgsim.fault.ConnectionFault(
                        dev.payments.pgsim.fault.ConnectionFault.Mode.REFUSE, 1.0)));
        OrderCreated order = orderCreated(jdbc, MEMBER, 3_000);

        Response response = confirm(port, order, "refused-conn");

        assertThat(response.status()).isEqualTo(502);
        assertThat(response.text("code")).isEqualTo("PAYMENT_FAILED");
        simulator().faults().reset();
        assertThat(simulator().ledger().paymentForOrder(order.orderId().toString())).isEmpty();
        // Nothing moved, so the order is still payable.
        assertThat(confirm(port, order, "refused-conn-again").status()).isEqualTo(200);
    }

    @Test
    void aRejectedSecretKeyIsOurFailureNeverADeclineAndOpensTheBreaker() {
        List<OrderCreated> orders = PaymentTestSupport.ordersCreated(jdbc, 11, i -> MEMBER, i -> 4_000);
        // A rotated or wrong secret key: the PG refuses everything with 401 before doing anything.
        simulator().faults().set(FaultSpec.none(Operation.ALL).withErrorRate(1.0).withErrorStatus(401));
        double authFailuresBefore = approvals("pg_auth_failed");

        for (int i = 0; i < 10; i++) {
            Response response = confirm(port, orders.get(i), "bad-key-" + i);
            assertThat(response.status()).as(response.body().toString()).isEqualTo(502);
            assertThat(response.text("code")).isEqualTo("PAYMENT_FAILED");
            assertThat(response.text("reason")).isEqualTo("PG_AUTH_FAILED");
        }

        assertThat(approvals("pg_auth_failed"))
                .isEqualTo(authFailuresBefore + 10);
        assertThat(breaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(confirm(port, orders.get(10), "bad-key-10").status()).isEqualTo(503);
        assertThat(simulator().ledger().transactions().stream()
                .filter(tx -> orders.stream().anyMatch(o -> o.orderId().toString().equals(tx.orderId())))).isEmpty();
    }

    /** {@code pg_client_latency_seconds_count{operation="confirm"}}: one per attempt sent (or tried) to the PG. */
    private double confirmAttempts() {
        io.micrometer.core.instrument.Timer timer = meters.find("pg.client.latency").tag("operation", "confirm").timer();
        return timer == null ? 0 : timer.count();
    }

    private CircuitBreaker breaker() {
        return breakers.circuitBreaker("pg-approve");
    }

    private long countPayments() {
        return jdbc.sql("SELECT count(*) FROM payments").query(Long.class).single();
    }

    static String member() {
        return "member-" + UUID.randomUUID();
    }
}
