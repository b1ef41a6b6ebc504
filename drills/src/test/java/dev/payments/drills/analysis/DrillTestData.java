package dev.payments.drills.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.observe.Books.OrderState;
import dev.payments.drills.observe.Clock;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** Recorded drill material with round numbers: attempts, order states, the audit. Drill second 0 is nanoTime 0. */
final class DrillTestData {

    static final Clock CLOCK = new Clock(0);
    private static final AtomicInteger ORDERS = new AtomicInteger();

    private DrillTestData() {
    }

    /** An approval sent (or scheduled) at {@code sentAt} and answered at {@code answeredAt}, drill seconds. */
    static Attempt attempt(String phase, double sentAt, double answeredAt, String outcome) {
        int n = ORDERS.incrementAndGet();
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

    static OrderState order(String orderId, String orderStatus, String paymentStatus, int pgApprovals,
                            int pgCancels) {
        return new OrderState(orderId, orderStatus, "payment-of-" + orderId, paymentStatus, pgApprovals, pgCancels);
    }

    static Map<String, OrderState> states(OrderState... states) {
        Map<String, OrderState> byOrder = new LinkedHashMap<>();
        for (OrderState s : states) {
            byOrder.put(s.orderId(), s);
        }
        return byOrder;
    }

    static JsonNode incident(String orderId) {
        return JsonNodeFactory.instance.objectNode().put("orderId", orderId).put("status", "OPEN");
    }

    static JsonNode reconciliationLedger(boolean holds, String identity) {
        return JsonNodeFactory.instance.objectNode().put("holds", holds).put("identity", identity);
    }

    /** {@code paid} orders PAID with one PG approval each; reconciliation agrees. */
    static LedgerAudit paidAudit(int paid) {
        OrderState[] states = new OrderState[paid];
        for (int i = 0; i < paid; i++) {
            states[i] = order("order-" + i, "PAID", "APPROVED", 1, 0);
        }
        return LedgerAudit.of(states(states), List.of(), reconciliationLedger(true, paid + " = " + paid + " PAID"),
                "reconciliation-service's audit over its window");
    }
}
