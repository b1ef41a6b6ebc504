package dev.payments.drills.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.load.Attempt;
import dev.payments.localstack.http.Http;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Many concurrent partial refunds of the same payments, together asking for more than was approved, while
 * the PG is slow, answers 5xx and loses booked answers, and clients retry with the same Idempotency-Key. Then the PG
 * recovers and the shipped settle (payment-service's refund settle, reconciliation's audit) finishes every refund.
 * Checks: 0 over-refunds, 0 refunds booked twice, the PG's refunds equal ours per payment, and reconciliation's
 * ledger identity holds in counts and in money.
 */
@Command(name = "refund-storm", description = "refunds: concurrent partial refunds, 5xx and lost answers, same-key retries.")
final class RefundStorm extends BaseScenario {

    private static final Duration CALL = Duration.ofSeconds(30);

    @Option(names = "--payments", description = "Approved payments to refund.")
    int payments = 10;
    @Option(names = "--refunds-per-payment", description = "Refunds asked per payment (together ~1.6x its amount).")
    int refundsPerPayment = 8;
    @Option(names = "--clients", description = "Concurrent refund clients.")
    int clients = 16;
    @Option(names = "--tries", description = "Attempts per refund with the same key (on a 202 or a 5xx).")
    int tries = 3;
    @Option(names = "--refund-settle-timeout", description = "Seconds to wait for every refund to be settled.")
    int settleTimeout = 240;
    @Option(names = "--seed", description = "Seed of the amounts, the order of the requests and the PG's faults.")
    long seed = 30;

    @Override
    public String description() {
        return payments + " approved payments, " + refundsPerPayment + " partial refunds each from " + clients
                + " clients retrying the same key; the PG's cancels slow, 5xx 20 %, booked answers lost 20 %, the "
                + "status query failing 33 %; then the PG recovers";
    }

    @Override
    public int ordersNeeded() {
        return payments;
    }

    @Override
    public void run(Drill drill) {
        List<Attempt> approved = drill.burst(payments, "approvals").stream()
                .filter(a -> "approved".equals(a.outcome()) && a.paymentId() != null).toList();
        drill.phase("refund storm");
        drill.pgFaults("[{\"operation\":\"cancel\",\"latency\":{\"minMs\":20,\"maxMs\":150},\"errorRate\":0.2,"
                + "\"errorStatus\":503,\"dropResponseRate\":0.2,\"dropMode\":\"RESET\",\"seed\":" + seed + "},"
                + "{\"operation\":\"query\",\"errorRate\":0.33,\"errorStatus\":503,\"seed\":" + (seed + 1) + "}]");
        Random random = new Random(seed);
        Map<String, AtomicLong> answers = new ConcurrentHashMap<>();
        List<Runnable> work = new ArrayList<>();
        for (Attempt payment : approved) {
            long step = Math.max(1, payment.order().amount() / 20);
            for (int r = 0; r < refundsPerPayment; r++) {
                long amount = step * (2 + random.nextInt(5));   // 10-30 % of the payment: ~1.6x it in all
                String key = "storm-" + r + "-" + payment.paymentId();
                work.add(() -> refund(drill, payment, key, amount, answers));
            }
        }
        Collections.shuffle(work, random);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            work.forEach(pool::submit);
            pool.shutdown();
            if (!pool.awaitTermination(10, TimeUnit.MINUTES)) {
                drill.note("the refund clients did not finish within 10 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.shutdownNow();
        }
        drill.extra("refundAnswers", new TreeMap<>(answers.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()))));
        long unsettledAfterStorm = unsettled(drill, approved);
        drill.extra("refundsUnsettledAfterStorm", unsettledAfterStorm);
        drill.clearFaults();

        double settleStarted = drill.clock().seconds();
        long left = unsettledAfterStorm;
        long deadline = System.nanoTime() + Duration.ofSeconds(settleTimeout).toNanos();
        while (left > 0 && System.nanoTime() < deadline) {
            drill.sleep(Duration.ofSeconds(2));
            left = unsettled(drill, approved);
        }
        if (left == 0) {
            drill.extra("refundsSettledAfterSeconds", Math.round((drill.clock().seconds() - settleStarted) * 10) / 10.0);
        }
        drill.check("every refund settled after the PG recovered", left == 0,
                left + " refunds still REQUESTED or UNKNOWN after " + settleTimeout + " s");
        books(drill, approved);
        ledger(drill);
    }

    /** One refund as a client does it: the same key again on a 202 (not known yet) or a 5xx, up to {@link #tries}. */
    private void refund(Drill drill, Attempt payment, String key, long amount, Map<String, AtomicLong> answers) {
        for (int attempt = 0; attempt < tries; attempt++) {
            Map<String, String> headers = new java.util.HashMap<>(Http.bearer(drill.target().tokens()
                    .member(payment.order().memberId())));
            headers.put("Idempotency-Key", key);
            Http.Response answer = drill.http().post(drill.target().endpoints().payment() + "/api/payments/"
                    + payment.paymentId() + "/refunds", headers, "{\"amount\":" + amount + "}", CALL);
            JsonNode body = answer.json();
            String label = (attempt == 0 ? "first " : "retry ") + answer.status() + " "
                    + (body.has("code") ? body.path("code").asText() : body.path("status").asText(answer.error()));
            answers.computeIfAbsent(label, k -> new AtomicLong()).incrementAndGet();
            if (answer.status() != 202 && answer.status() < 500 && answer.status() != 0) {
                return;
            }
        }
    }

    private static long unsettled(Drill drill, List<Attempt> approved) {
        long unsettled = 0;
        for (Attempt payment : approved) {
            for (JsonNode refund : refunds(drill, payment).path("refunds")) {
                String status = refund.path("status").asText();
                unsettled += "REQUESTED".equals(status) || "UNKNOWN".equals(status) ? 1 : 0;
            }
        }
        return unsettled;
    }

    private static JsonNode refunds(Drill drill, Attempt payment) {
        return drill.http().get(drill.target().endpoints().payment() + "/api/payments/" + payment.paymentId() + "/refunds",
                Http.bearer(drill.target().tokens().member(payment.order().memberId())), CALL).json();
    }

    /** The PG's books against ours, per payment: its cancels against our succeeded refunds. */
    private static void books(Drill drill, List<Attempt> approved) {
        long overRefunds = 0;
        long doubled = 0;
        long differ = 0;
        long pgRefunded = 0;
        long ourRefunded = 0;
        Map<String, Long> byStatus = new TreeMap<>();
        for (Attempt payment : approved) {
            JsonNode pg = drill.http().getPg(drill.target().endpoints().pg() + "/v1/payments/orders/" + payment.order().orderId(),
                    CALL).json();
            long pgSum = 0;
            Map<String, Long> perRefund = new java.util.HashMap<>();
            for (JsonNode cancel : pg.path("cancels")) {
                pgSum += cancel.path("cancelAmount").asLong();
                String reason = cancel.path("cancelReason").asText();
                perRefund.merge(reason.length() >= 44 ? reason.substring(0, 44) : reason, 1L, Long::sum);
            }
            JsonNode ours = refunds(drill, payment);
            long oursSum = 0;
            for (JsonNode refund : ours.path("refunds")) {
                byStatus.merge(refund.path("status").asText(), 1L, Long::sum);
                oursSum += "SUCCEEDED".equals(refund.path("status").asText()) ? refund.path("amount").asLong() : 0;
            }
            long approvedAmount = payment.order().amount();
            overRefunds += pgSum > approvedAmount || oursSum > approvedAmount ? 1 : 0;
            doubled += perRefund.values().stream().filter(n -> n > 1).count();
            differ += pgSum != oursSum || ours.path("refunded").asLong() != oursSum ? 1 : 0;
            pgRefunded += pgSum;
            ourRefunded += oursSum;
        }
        drill.extra("refundsByStatus", byStatus);
        drill.extra("pgRefunded", pgRefunded);
        drill.extra("ourRefunded", ourRefunded);
        drill.check("0 over-refunds", overRefunds == 0, overRefunds + " payments refunded beyond their amount");
        drill.check("0 refunds booked twice at the PG", doubled == 0, doubled + " refunds booked more than once");
        drill.check("the PG's refunds equal ours per payment", differ == 0,
                differ + " payments differ; PG refunded " + pgRefunded + ", ours " + ourRefunded);
    }

    /** reconciliation-service's own audit, run now: the identity in counts and in money. */
    private static void ledger(Drill drill) {
        JsonNode ledger = drill.http().get(drill.target().endpoints().reconciliation() + "/api/reconciliation/ledger?refresh=true",
                Http.bearer(drill.target().tokens().operator("operator-1")), Duration.ofSeconds(60)).json();
        drill.extra("reconciliationMoney", ledger.path("money"));
        drill.check("reconciliation's ledger identity holds in money", ledger.path("money").path("holds").asBoolean(),
                ledger.path("money").path("identity").asText("no answer"));
    }

    @Override
    public List<Target> targets(Measurements r) {
        var a = r.audit().books();
        return List.of(new Target("every PG approval accounted for", a.pgApprovals() + " accounted", a.identity(),
                a.lost() == 0));
    }
}
