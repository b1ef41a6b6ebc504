package dev.payments.drills.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.payments.drills.analysis.DrillAnalysis;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.LedgerAudit;
import dev.payments.drills.analysis.Observations;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.observe.Books.OrderState;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.MetricsSampler.Transition;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline.Mark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Recorded drill material with round numbers: attempts, order states, the audit. Drill second 0 is nanoTime 0. */
public final class DrillTestData {

    public static final Clock CLOCK = new Clock(0);
    private static final AtomicInteger ORDERS = new AtomicInteger();

    private DrillTestData() {
    }

    /** An approval sent (or scheduled) at {@code sentAt} and answered at {@code answeredAt}, drill seconds. */
    public static Attempt attempt(String phase, double sentAt, double answeredAt, String outcome) {
        return attempt(ORDERS.incrementAndGet(), phase, sentAt, answeredAt, outcome);
    }

    private static Attempt attempt(int n, String phase, double sentAt, double answeredAt, String outcome) {
        PreparedOrder order = new PreparedOrder(n, "order-" + n, "member-" + (n % 30), 15_000);
        int status = switch (outcome) {
            case "approved" -> 200;
            case "pending" -> 202;
            case "pg_unavailable" -> 503;
            default -> 0;
        };
        return new Attempt(order, phase, CLOCK.nanos(sentAt), CLOCK.nanos(answeredAt), status, outcome,
                "payment-" + n, 0);
    }

    public static OrderState order(String orderId, String orderStatus, String paymentStatus, int pgApprovals,
                            int pgCancels) {
        return new OrderState(orderId, orderStatus, "payment-of-" + orderId, paymentStatus, pgApprovals, pgCancels);
    }

    public static Map<String, OrderState> states(OrderState... states) {
        Map<String, OrderState> byOrder = new LinkedHashMap<>();
        for (OrderState s : states) {
            byOrder.put(s.orderId(), s);
        }
        return byOrder;
    }

    public static JsonNode incident(String orderId) {
        return JsonNodeFactory.instance.objectNode().put("orderId", orderId).put("status", "OPEN");
    }

    public static JsonNode reconciliationLedger(boolean holds, String identity) {
        return JsonNodeFactory.instance.objectNode().put("holds", holds).put("identity", identity);
    }

    /** {@code paid} orders PAID with one PG approval each; reconciliation agrees. */
    public static LedgerAudit paidAudit(int paid) {
        OrderState[] states = new OrderState[paid];
        for (int i = 0; i < paid; i++) {
            states[i] = order("order-" + i, "PAID", "APPROVED", 1, 0);
        }
        return LedgerAudit.of(states(states), List.of(), reconciliationLedger(true, paid + " = " + paid + " PAID"),
                "reconciliation-service's audit over its window");
    }

    /**
     * A small pg-slow as a drill would record it: the PG 1 s late from 2 s, a burst of 10 at 3 s and of 20 at 6 s,
     * the pool filling, the breaker closed throughout, every order PAID. Fixed numbers: a report rendered from it is
     * the same on every machine.
     */
    public static DrillResult pgSlowResult() {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            attempts.add(attempt(i, "burst-10", 3, 4.05 + i * 0.02, "approved"));
        }
        for (int i = 0; i < 20; i++) {
            attempts.add(attempt(10 + i, "burst-20", 6, 7.1 + i * 0.03, i == 19 ? "pending" : "approved"));
        }
        List<Sample> samples = new ArrayList<>();
        for (int t = 0; t <= 12; t++) {
            double approved = t < 5 ? 0 : t < 8 ? 10 : 29;
            double pending = t == 7 ? 4 : t == 4 ? 1 : 0;
            samples.add(new Sample(t, true, pending, t >= 3 && t <= 8 ? 10.0 : 1.0, 0.0, 20.0 - (t == 7 ? 20 : 0),
                    "CLOSED", 0.02, 0.4, 60.0, Map.of("approved", approved, "unknown", t >= 8 ? 1.0 : 0.0),
                    Map.of("order-service", t == 8 ? 3L : 0L, "payment-service", 0L)));
        }
        List<Mark> marks = List.of(new Mark(0.5, "placing orders"), new Mark(2, "load start"),
                new Mark(2, "fault injected"), new Mark(3, "burst-10"), new Mark(5, "pause"), new Mark(6, "burst-20"),
                new Mark(8, "recovered"), new Mark(8.1, "load end"), new Mark(8.2, "settling"), new Mark(11, "audit"),
                new Mark(12, "done"));
        OrderState[] orders = new OrderState[30];
        for (int i = 0; i < 29; i++) {
            orders[i] = order("order-" + i, "PAID", "APPROVED", 1, 0);
        }
        orders[29] = order("order-29", "PAYMENT_PENDING", "UNKNOWN", 0, 0);
        LedgerAudit audit = LedgerAudit.of(states(orders), List.of(),
                reconciliationLedger(true, "29 PG approvals = 29 PAID + 0 cancellations + 0 incidents"),
                "reconciliation-service's audit over its window (every order the PG saw, not only this drill's)");
        Observations observed = new Observations(CLOCK, 12.34, attempts, 0, samples,
                List.of(new Transition(0.2, null, "CLOSED")), marks, audit, new Observations.Recovery(1, 10.0, 9.0),
                Duration.ofSeconds(30), Map.of(), List.of());
        DrillResult.Measurements measured = DrillAnalysis.measure(observed);
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("latency-ms", 1000);
        parameters.put("first", 10);
        parameters.put("second", 20);
        DrillResult.Run run = new DrillResult.Run("pg-slow", "000", "PG approvals delayed 1000 ms, 10 then 20 concurrent",
                "drills pg-slow --latency-ms 1000 --first 10 --second 20", "2026-12-01T00:00:00Z",
                new DrillResult.Machine(2, "OpenJDK 64-Bit Server VM 17", "Linux 6.1 amd64", "test-host"),
                "own stack started by the drill (random ports)", parameters,
                Map.of("payment-service", List.of("--spring.datasource.hikari.maximum-pool-size=10")));
        return new DrillResult(run, measured, DrillAnalysis.checks(audit, observed.deadLetters()),
                List.of(new DrillResult.Target("approved, no compensation", "30 of 30, 0 cancels", "29 of 30, 0 cancels",
                        false), new DrillResult.Target("DB pool timeouts", "0", "0.0", true)),
                Map.of(), List.of("pause between the bursts 1 s instead of 000's 90 s", "load average 1.00 / 0.50 / 0.25"));
    }
}
