package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.localstack.Component;
import dev.payments.localstack.http.Http;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * TX-2 fails after the PG approved. PostgreSQL is stopped while payment-service waits for
 * the PG's answer, so the approval cannot be written down: the customer hears PENDING (never FAILED), the payment
 * stays REQUESTED, and once the database is back every service recovers by itself (Hikari reconnects, the outbox
 * relay restarts, the Kafka consumers carry on) and reconciliation settles the payment from the PG's books: APPROVED,
 * the order PAID, one completion notice, and the ledger identity holds.
 */
class DatabaseOutageSystemTest {

    /**
     * The PG's confirm latency: the window in which the database is taken away. Below the breaker's slow-call
     * threshold (6 s) and the confirm read timeout (15 s), so the PG call itself succeeds; PostgreSQL's fast shutdown
     * refuses connections from its first moment but took 0.3-2.4 s to return here, hence 5 s rather than less.
     */
    private static final Duration PG_LATENCY = Duration.ofSeconds(5);
    /**
     * docs/reconciliation.md: a REQUESTED payment is picked once its PaymentRequested is older than the settle
     * deadline (30 s), by a cycle every 5 s; the rest is margin for the services' reconnects and the events' trip.
     */
    private static final Duration SETTLED_WITHIN = Duration.ofSeconds(90);
    private static final Http HTTP = new Http();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Component> SERVICES = List.of(Component.ORDER_SERVICE, Component.PAYMENT_SERVICE,
            Component.NOTIFICATION_SERVICE, Component.RECONCILIATION_SERVICE);

    /** What the run took, printed whether it passes or not: the numbers the report quotes. */
    private final List<String> timings = new ArrayList<>();

    @BeforeAll
    static void stack() {
        get();
    }

    /** The stack is shared by every system test in this JVM: never leave it without its database or with a fault. */
    @AfterEach
    void restore() {
        System.out.println("DatabaseOutageSystemTest timings: " + String.join(", ", timings));
        try {
            admin("DELETE", "/admin/faults", null);
        } finally {
            get().start(Component.POSTGRES);
        }
    }

    @Test
    void anApprovalWhoseTx2FailedIsSettledOnceTheDatabaseIsBackAndTheLedgerHolds() throws Exception {
        Instant began = Instant.now();
        String memberId = member();
        long amount = 17_000;
        String orderId = createOrder(memberId, amount);
        awaitPaymentServiceSees(orderId, memberId, amount);
        String duringOutage = createOrder(memberId, amount);
        awaitPaymentServiceSees(duringOutage, memberId, amount);
        double dbFailedBefore = approvals("db_failed");

        admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":" + PG_LATENCY.toMillis() + "}}");
        long sent = System.nanoTime();
        CompletableFuture<SystemStack.Response> confirming = CompletableFuture.supplyAsync(() -> SystemStack.post(
                Component.PAYMENT_SERVICE, "/api/payments/confirm",
                SystemStack.asMember(memberId, Map.of("Idempotency-Key", "db-outage-" + orderId)),
                "{\"orderId\":\"" + orderId + "\",\"paymentKey\":\"pk-" + orderId + "\",\"amount\":" + amount + "}"));

        // Instead of a fixed delay before the outage, wait for what the delay stands for: TX-1 has committed (the PG
        // books the confirm IN_PROGRESS when it arrives, and payment-service calls the PG only after TX-1), and its
        // PaymentRequested has reached order-service and reconciliation. So the outage hits TX-2 alone, not TX-1 and
        // not the event's trip (a different failure, and a race that would make this test flaky).
        await().atMost(PG_LATENCY.minusSeconds(1)).pollInterval(Duration.ofMillis(50)).until(() ->
                "IN_PROGRESS".equals(pgPayment(orderId).path("status").asText()));
        timing("confirm at the PG", since(sent));
        await().atMost(PG_LATENCY.minusSeconds(1)).pollInterval(Duration.ofMillis(50)).until(() ->
                "PAYMENT_PENDING".equals(orderStatus(orderId))
                        && "PAYMENT_PENDING".equals(SystemStack.get(Component.RECONCILIATION_SERVICE,
                        "/api/reconciliation/orders/" + orderId).text("status")));
        timing("PaymentRequested applied by order-service and reconciliation", since(sent));

        assertThat(confirming).as("the PG call is still in flight when the database goes").isNotDone();
        long stopping = System.nanoTime();
        timing("database stopping", since(sent));
        get().stop(Component.POSTGRES);
        timing("PostgreSQL stop took", since(stopping));

        SystemStack.Response confirmed = confirming.get(30, TimeUnit.SECONDS);
        timing("confirm answered " + confirmed.status(), since(sent));
        assertThat(confirmed.status()).as(() -> "the customer hears PENDING: " + confirmed + "\n" + logExcerpts())
                .isEqualTo(202);
        assertThat(confirmed.text("status")).as("never FAILED: %s", confirmed.body()).isEqualTo("PENDING");
        String paymentId = confirmed.text("paymentId");
        assertThat(paymentId).isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(PG_LATENCY);
        // The PG took the money: its books say DONE while ours could not say anything.
        assertThat(pgPayment(orderId).path("status").asText()).isEqualTo("DONE");
        assertThat(approvals("db_failed")).as("payment_approval_total{outcome=db_failed}").isEqualTo(dbFailedBefore + 1);

        // A new confirm while the database is still down: nothing can be written, so nothing may be charged, and the
        // customer is told to try again later - 503 DB_UNAVAILABLE, not a 500 (the member's rate bucket lives in the
        // same database and is the first thing a confirm reads).
        SystemStack.Response refused = SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/confirm",
                SystemStack.asMember(memberId, Map.of("Idempotency-Key", "db-down-" + duringOutage)),
                "{\"orderId\":\"" + duringOutage + "\",\"paymentKey\":\"pk-" + duringOutage + "\",\"amount\":" + amount + "}");
        timing("confirm during the outage answered " + refused.status(), since(sent));
        assertThat(refused.status()).as("%s", refused).isEqualTo(503);
        assertThat(refused.text("code")).as("%s", refused).isEqualTo("DB_UNAVAILABLE");
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(pgPayment(duringOutage).isEmpty()).as("the PG was never asked: %s", pgPayment(duringOutage)).isTrue();
        assertThat(approvals("db_failed")).as("counted where 000's alert looks").isEqualTo(dbFailedBefore + 2);

        admin("DELETE", "/admin/faults", null);
        long starting = System.nanoTime();
        get().start(Component.POSTGRES);
        timing("PostgreSQL start took", since(starting));
        Instant databaseBack = Instant.now();

        // TX-2's write is lost: once payment-service can read again, the payment is still REQUESTED (reconciliation
        // picks it only 30 s after its PaymentRequested), and nobody was told anything but PENDING.
        JsonNode afterOutage = awaitRecovery("payment-service reads its database again", Duration.ofSeconds(30), () ->
                paymentView(paymentId), view -> view != null);
        timing("after the restart: payment readable", Duration.between(databaseBack, Instant.now()));
        assertThat(afterOutage.path("status").asText()).as("%s", afterOutage).isEqualTo("REQUESTED");
        assertThat(afterOutage.path("customerNotice").asText()).as("%s", afterOutage).isNotEqualTo("FAILED");

        awaitRecovery("the payment is APPROVED", SETTLED_WITHIN, () -> paymentView(paymentId),
                view -> view != null && "APPROVED".equals(view.path("status").asText()));
        timing("APPROVED", Duration.between(databaseBack, Instant.now()));
        awaitRecovery("the order is PAID", Duration.ofSeconds(20), () -> orderStatus(orderId), "PAID"::equals);
        timing("order PAID", Duration.between(databaseBack, Instant.now()));
        JsonNode payment = paymentView(paymentId);
        assertThat(payment.path("pgTransactionKey").asText(null)).isNotNull();
        assertThat(SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("paymentId")).isEqualTo(paymentId);

        awaitRecovery("one PAYMENT_COMPLETED notification", Duration.ofSeconds(20), () -> completions(orderId),
                count -> count >= 1);
        timing("PAYMENT_COMPLETED", Duration.between(databaseBack, Instant.now()));
        // Exactly one, and it stays one: the retries after the outage must not send it twice.
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> completions(orderId) == 1);

        JsonNode ledger = awaitRecovery("the ledger holds", Duration.ofSeconds(60), DatabaseOutageSystemTest::ledger,
                l -> l.path("holds").asBoolean() && mismatchesOf(l, orderId).isEmpty());
        assertThat(ledger.path("pgApprovals").asLong()).as(ledger.path("identity").asText())
                .isEqualTo(ledger.path("paidOrders").asLong() + ledger.path("renewals").asLong()
                        + ledger.path("cancellations").asLong() + ledger.path("incidents").asLong()
                        + ledger.path("inFlight").asLong());
        // This test's own window: its one approval, matched to a PAID order with an APPROVED payment.
        JsonNode window = SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/ledger?from="
                + began.minusSeconds(1) + "&to=" + Instant.now().plusSeconds(1)).body();
        assertThat(window.path("pgApprovals").asLong()).as(window.path("identity").asText()).isEqualTo(1);
        assertThat(window.path("paidOrders").asLong()).as(window.path("identity").asText()).isEqualTo(1);
        assertThat(window.path("holds").asBoolean()).as(window.toString()).isTrue();
        timing("ledger holds", Duration.between(databaseBack, Instant.now()));
    }

    // --- helpers

    /**
     * payment-service's view of orders is eventual (order.events): a confirm with a wrong amount answers 400
     * AMOUNT_MISMATCH once it knows the order and 404 ORDER_NOT_FOUND before. The refusal rolls its key back and
     * writes nothing, so the real confirm later is the order's first.
     */
    private static void awaitPaymentServiceSees(String orderId, String memberId, long amount) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            SystemStack.Response probe = SystemStack.post(Component.PAYMENT_SERVICE, "/api/payments/confirm",
                    SystemStack.asMember(memberId, Map.of("Idempotency-Key", "probe-" + orderId)),
                    "{\"orderId\":\"" + orderId + "\",\"paymentKey\":\"pk-" + orderId + "\",\"amount\":" + (amount + 1) + "}");
            if (probe.status() != 404 && !"AMOUNT_MISMATCH".equals(probe.text("code"))) {
                throw new AssertionError("unexpected answer to the probe: " + probe);
            }
            return probe.status() == 400;
        });
    }

    /**
     * Waits for something the services must reach by themselves after the outage; if they do not, fails with what
     * their logs said since the outage, so the failure names the service that did not recover.
     */
    private static <T> T awaitRecovery(String what, Duration atMost, Callable<T> read,
                                       java.util.function.Predicate<T> done) {
        try {
            return await(what).atMost(atMost).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(read, done::test);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(what + " did not happen within " + atMost + " after the database came back.\n"
                    + logExcerpts(), e);
        }
    }

    /** The WARN and ERROR lines of every service, last ones first per service. */
    private static String logExcerpts() {
        StringBuilder out = new StringBuilder();
        for (Component service : SERVICES) {
            Path log = get().logFile(service);
            out.append("--- ").append(service).append(" (").append(log).append(")\n");
            try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
                List<String> problems = lines.filter(line -> line.contains("\"level\":\"WARN\"")
                        || line.contains("\"level\":\"ERROR\"")).toList();
                problems.subList(Math.max(0, problems.size() - 15), problems.size())
                        .forEach(line -> out.append(line.length() > 400 ? line.substring(0, 400) + "..." : line).append('\n'));
            } catch (IOException | java.io.UncheckedIOException e) {
                out.append("(unreadable: ").append(e).append(")\n");
            }
        }
        return out.toString();
    }

    private void timing(String what, Duration took) {
        timings.add(what + " " + took.toMillis() + " ms");
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

    /** payment-service's payment, or null while it cannot answer (its database is still coming back). */
    private static JsonNode paymentView(String paymentId) {
        SystemStack.Response response = SystemStack.get(Component.PAYMENT_SERVICE, "/api/payments/" + paymentId);
        return response.status() == 200 ? response.body() : null;
    }

    private static String orderStatus(String orderId) {
        return SystemStack.get(Component.ORDER_SERVICE, "/api/orders/" + orderId).text("status");
    }

    private static long completions(String orderId) {
        SystemStack.Response response = SystemStack.get(Component.NOTIFICATION_SERVICE, "/api/notifications?orderId=" + orderId);
        if (response.status() != 200) {
            throw new IllegalStateException("notification-service: " + response);
        }
        return response.body().findValuesAsText("kind").stream().filter("PAYMENT_COMPLETED"::equals).count();
    }

    private static JsonNode ledger() {
        SystemStack.Response response = SystemStack.get(Component.RECONCILIATION_SERVICE,
                "/api/reconciliation/ledger?refresh=true");
        if (response.status() != 200) {
            throw new IllegalStateException("ledger: " + response);
        }
        return response.body();
    }

    private static List<JsonNode> mismatchesOf(JsonNode ledger, String orderId) {
        return StreamSupport.stream(ledger.path("mismatches").spliterator(), false)
                .filter(m -> orderId.equals(m.path("orderId").asText()))
                .toList();
    }

    /** payment_approval_total{outcome=...} from payment-service's Prometheus endpoint. */
    private static double approvals(String outcome) {
        String text = ok(HTTP.get(get().managementUrlOf(Component.PAYMENT_SERVICE) + "/actuator/prometheus",
                Duration.ofSeconds(10))).body();
        List<Double> values = new ArrayList<>();
        text.lines().filter(line -> line.startsWith("payment_approval_total{") && line.contains("outcome=\"" + outcome + "\""))
                .forEach(line -> values.add(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))));
        assertThat(values).as("payment_approval_total{outcome=%s}", outcome).hasSize(1);
        return values.get(0);
    }

    /** The PG's payment of an order ({@code GET /v1/payments/orders/{orderId}}), or an empty node if it has none. */
    private static JsonNode pgPayment(String orderId) throws IOException {
        Http.Response response = HTTP.getPg(get().urlOf(Component.PG_SIMULATOR) + "/v1/payments/orders/" + orderId,
                Duration.ofSeconds(5));
        return response.status() == 404 ? JSON.createObjectNode() : JSON.readTree(ok(response).body());
    }

    private static void admin(String method, String path, String body) {
        SystemStack.admin(method, path, body);
    }

    private static Http.Response ok(Http.Response response) {
        if (!response.ok()) {
            throw new IllegalStateException(response.status() == 0 ? response.error()
                    : response.status() + " " + response.body());
        }
        return response;
    }
}
