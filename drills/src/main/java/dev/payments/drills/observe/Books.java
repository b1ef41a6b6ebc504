package dev.payments.drills.observe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.drills.analysis.LedgerAudit;
import dev.payments.localstack.http.Http;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.stack.Target;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The drill's own audit, from the PG's books and each service's API, for the drill's orders only: what the PG
 * approved and cancelled, what our orders and payments say, and reconciliation's ledger and incidents beside it.
 */
public final class Books {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** CANCEL_OWED too: a cancel payment-service owes the PG and is still sending. */
    private static final Set<String> UNSETTLED = Set.of("REQUESTED", "UNKNOWN", "CANCEL_OWED");
    /** Order states reached through an approved payment that stays APPROVED. */
    private static final Set<String> PAID_ORDER = Set.of("PAID", "PARTIALLY_REFUNDED", "REFUNDED");

    private final Http http;
    private final Target target;

    public Books(Http http, Target target) {
        this.http = http;
        this.target = target;
    }

    /** One order's state on both sides. */
    public record OrderState(String orderId, String orderStatus, String paymentId, String paymentStatus,
                             int pgApprovals, int pgCancels) {

        public boolean unsettled() {
            return (paymentStatus != null && UNSETTLED.contains(paymentStatus)) || "PAYMENT_PENDING".equals(orderStatus);
        }

        /**
         * The payment is APPROVED but order-service has not made the order PAID yet: its events are still coming. An
         * order refunded in part or in full stays paid by its APPROVED payment (docs/decisions/order-states.md).
         */
        public boolean orderBehind() {
            return "APPROVED".equals(paymentStatus) && !PAID_ORDER.contains(orderStatus);
        }
    }

    /** The current state of every given order (order-service, payment-service, and the PG's books). */
    public Map<String, OrderState> states(List<PreparedOrder> orders, Map<String, String> knownPaymentIds) {
        Map<String, int[]> pg = pgBooks();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<OrderState>> futures = new ArrayList<>();
            for (PreparedOrder order : orders) {
                futures.add(pool.submit(() -> state(order, knownPaymentIds.get(order.orderId()), pg)));
            }
            Map<String, OrderState> states = new LinkedHashMap<>();
            for (Future<OrderState> f : futures) {
                OrderState s = f.get();
                states.put(s.orderId(), s);
            }
            return states;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Read as the order's member: their token, as they would see it. */
    private OrderState state(PreparedOrder prepared, String knownPaymentId, Map<String, int[]> pg) {
        String orderId = prepared.orderId();
        Map<String, String> member = Http.bearer(target.tokens().member(prepared.memberId()));
        Http.Response order = http.get(target.endpoints().order() + "/api/orders/" + orderId, member, TIMEOUT);
        String orderStatus = order.ok() ? order.json().path("status").asText(null) : null;
        String paymentId = order.ok() ? order.json().path("paymentId").asText(null) : null;
        if (paymentId == null) {
            paymentId = knownPaymentId;
        }
        String paymentStatus = null;
        if (paymentId != null) {
            Http.Response payment = http.get(target.endpoints().payment() + "/api/payments/" + paymentId, member, TIMEOUT);
            paymentStatus = payment.ok() ? payment.json().path("status").asText(null)
                    : payment.status() == 404 ? "NONE" : "UNREADABLE";
        }
        int[] counts = pg.getOrDefault(orderId, new int[2]);
        return new OrderState(orderId, orderStatus, paymentId, paymentStatus, counts[0], counts[1]);
    }

    private Map<String, String> operator() {
        return Http.bearer(target.tokens().operator("operator-1"));
    }

    /** orderId -> [APPROVE count, CANCEL count] from the PG's transaction listing. */
    public Map<String, int[]> pgBooks() {
        Map<String, int[]> books = new HashMap<>();
        eachPgTransaction(tx -> {
            int[] counts = books.computeIfAbsent(tx.path("orderId").asText(), k -> new int[2]);
            counts["APPROVE".equals(tx.path("type").asText()) ? 0 : 1]++;
        });
        return books;
    }

    /** When the PG booked each approval (its transaction listing): the PG's own clock, not ours. */
    public List<Instant> pgApprovalTimes() {
        List<Instant> times = new ArrayList<>();
        eachPgTransaction(tx -> {
            if ("APPROVE".equals(tx.path("type").asText())) {
                times.add(OffsetDateTime.parse(tx.path("transactedAt").asText()).toInstant());
            }
        });
        return times;
    }

    /** Every transaction in the PG's listing, page by page (at most 10,000 pages of 1,000). */
    public void eachPgTransaction(Consumer<JsonNode> each) {
        String cursor = null;
        for (int page = 0; page < 10_000; page++) {
            String url = target.endpoints().pg() + "/v1/transactions?limit=1000"
                    + (cursor == null ? "" : "&startingAfter=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
            Http.Response r = http.getPg(url, TIMEOUT);
            if (!r.ok()) {
                throw new IllegalStateException("PG listing answered " + r.status() + " " + r.error());
            }
            JsonNode json = r.json();
            json.path("transactions").forEach(each);
            if (!json.path("hasNext").asBoolean(false)) {
                return;
            }
            cursor = json.path("nextCursor").asText();
        }
    }

    /** Reconciliation's incidents for these orders (empty with a note if the service does not offer them). */
    public List<JsonNode> incidents(Set<String> orderIds) {
        Http.Response r = http.get(target.endpoints().reconciliation() + "/api/incidents", operator(), TIMEOUT);
        List<JsonNode> ours = new ArrayList<>();
        if (r.ok()) {
            for (JsonNode incident : r.json().path("incidents")) {
                if (orderIds.contains(incident.path("orderId").asText())) {
                    ours.add(incident);
                }
            }
        }
        return ours;
    }

    /** The drill's audit over these orders, with reconciliation's incidents and ledger beside it. */
    public LedgerAudit audit(Map<String, OrderState> states) {
        List<JsonNode> incidents = incidents(new HashSet<>(states.keySet()));
        Http.Response r = http.get(target.endpoints().reconciliation() + "/api/reconciliation/ledger?refresh=true",
                operator(), Duration.ofSeconds(30));
        if (r.ok()) {
            return LedgerAudit.of(states, incidents, r.json(),
                    "reconciliation-service's audit over its window (every order the PG saw, not only this drill's)");
        }
        return LedgerAudit.of(states, incidents, null, "reconciliation ledger unavailable ("
                + (r.status() == 0 ? r.error() : "HTTP " + r.status())
                + "): identity computed by the drill only, from the PG's books and the services' APIs");
    }
}
