package dev.payments.drills.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.load.Attempt;
import dev.payments.localstack.http.Http;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Notices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Under load, the PG's front door takes every confirm and never answers; its back end books each
 * one {@code --book-after-ms} after the client gave up, long after payment-service recorded the payment FAILED (the PG
 * had no record of it past {@code not-found-is-final-after}) and told the customer "nothing was charged". The PG then
 * calls back. Every such late approval must end cancelled at the PG, the order FAILED, one PAYMENT_CANCELED notice per
 * order, no charge doubled, the ledger holding.
 * <p>
 * Wave 1's silent confirms are slow calls, so they open the approval breaker: a later wave meets it OPEN or in its
 * half-open trial. The drill waits for the breaker to leave OPEN before each later wave, so the trial's calls reach
 * the PG too, and counts what the breaker refused (503 {@code PG_UNAVAILABLE}, the PG never asked) as the customer-safe
 * outcome it is: such an order has no booking at the PG and stays payable. The targets are per confirm that reached
 * the PG, and every confirm must be one or the other.
 */
@Command(name = "pg-late-booking",
        description = "002: the PG books approvals after we said FAILED; every one must be cancelled, none kept.")
final class PgLateBooking extends BaseScenario {

    @Option(names = "--per-wave", description = "Concurrent confirms per wave.")
    int perWave = 20;
    @Option(names = "--waves", description = "Waves, one after the other.")
    int waves = 2;
    @Option(names = "--book-after-ms", description = "The PG books each confirm this long after the client gave up: "
            + "after payment-service calls a payment the PG has never seen FAILED (60 s after its request, as shipped).")
    long bookAfterMs = 80_000;
    @Option(names = "--patience-s", description = "How long to wait for every late approval to be cancelled.")
    long patienceSeconds = 240;

    private int sent;
    private int refusedBeforePg;
    private int refusedButBooked;
    private int expected;
    private int booked;
    private int canceledAtPg;
    private int failedBeforeBooking;
    private int ordersWithOneCancelNotice;
    private int ordersWithAFailedNotice;
    private final List<Double> compensationSeconds = new ArrayList<>();

    @Override
    public String description() {
        return waves + " waves of " + perWave + " concurrent confirms the PG takes silently and books "
                + bookAfterMs / 1000 + " s after the client gave up (payment FAILED 60 s after its request), then "
                + "calls back";
    }

    @Override
    public int ordersNeeded() {
        return waves * perWave;
    }

    @Override
    public void run(Drill drill) {
        drill.fault("{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":" + bookAfterMs + "}}");
        Set<String> refused = new HashSet<>();
        Map<String, String> payments = new HashMap<>();
        Set<String> failedBeforeBooked = new HashSet<>();
        for (int wave = 1; wave <= waves; wave++) {
            if (wave > 1) {
                // The earlier waves' payments go FAILED while the breaker is open, and are booked before it closes:
                // watched meanwhile, or the sequence of the first wave would never be seen.
                drill.phase("waiting for the breaker to leave OPEN");
                Instant patience = Instant.now().plusSeconds(90);
                while ("OPEN".equals(drill.breakerState()) && Instant.now().isBefore(patience)) {
                    watch(drill, refused, payments, failedBeforeBooked);
                    drill.sleep(Duration.ofSeconds(1));
                }
            }
            for (Attempt attempt : drill.burst(perWave, "wave-" + wave)) {
                if ("pg_unavailable".equals(attempt.outcome())) {
                    refused.add(attempt.order().orderId());
                }
            }
        }
        sent = waves * perWave;
        refusedBeforePg = refused.size();
        expected = sent - refusedBeforePg;
        // Nothing else is faulty: status queries, cancels and the callback work; only the bookings are late.
        drill.pgFaults("[{\"operation\":\"all\"}]");
        drill.mark("confirms answered");

        List<PreparedOrder> sentOrders = drill.orders().used();
        drill.phase("waiting for the late bookings");
        Instant giveUp = Instant.now().plusSeconds(patienceSeconds);
        while (Instant.now().isBefore(giveUp)) {
            watch(drill, refused, payments, failedBeforeBooked);
            drill.detail(booked + "/" + expected + " booked late, " + canceledAtPg + " cancelled at the PG");
            if (booked == expected && canceledAtPg == expected) {
                break;
            }
            drill.sleep(Duration.ofSeconds(2));
        }
        drill.mark("late approvals cancelled at the PG");
        PgCounts last = pgCounts(drill, sentOrders);
        compensationSeconds.addAll(last.compensationSeconds);
        refusedButBooked = (int) refused.stream().filter(last.approved::contains).count();
        // The notices follow the events by a moment.
        drill.phase("counting notices");
        Instant noticesBy = Instant.now().plusSeconds(30);
        do {
            countNotices(drill, sentOrders);
            if (ordersWithOneCancelNotice == expected) {
                break;
            }
            drill.sleep(Duration.ofSeconds(2));
        } while (Instant.now().isBefore(noticesBy));
        drill.extra("confirms refused before the PG (503 PG_UNAVAILABLE, the breaker)", refusedBeforePg);
        drill.extra("late bookings", booked);
        drill.extra("payments FAILED before the PG booked them", failedBeforeBooking);
        drill.extra("cancelled at the PG", canceledAtPg);
        drill.extra("booking -> cancel at the PG (s), median / max", compensationText());
        drill.extra("orders with exactly one PAYMENT_CANCELED notice", ordersWithOneCancelNotice);
        drill.extra("orders told PAYMENT_FAILED first", ordersWithAFailedNotice);
        drill.clearFaults();
    }

    @Override
    public List<Target> targets(Measurements r) {
        var a = r.audit().books();
        long failedOrders = a.orderStatuses().getOrDefault("FAILED", 0L);
        return List.of(
                new Target("each of the " + sent + " confirms booked late, or refused before the PG and never booked",
                        "all, 0 refused yet booked", expected + " booked, " + refusedBeforePg + " refused, "
                        + refusedButBooked + " refused yet booked",
                        booked == expected && refusedButBooked == 0 && expected > 0),
                new Target("every late approval cancelled at the PG", expected + " of " + expected,
                        canceledAtPg + " of " + booked + " booked late", booked == expected && canceledAtPg == expected),
                new Target("payments FAILED before the PG booked them (the sequence happened)", expected + "",
                        failedBeforeBooking + "", failedBeforeBooking == expected),
                new Target("orders FAILED (nothing the customer could use was charged)", expected + "",
                        failedOrders + "", failedOrders == expected),
                new Target("one PAYMENT_CANCELED notice per order", expected + "", ordersWithOneCancelNotice + "",
                        ordersWithOneCancelNotice == expected),
                new Target("no charge doubled, ledger holds", "0 doubled, holds", a.doubled() + " doubled, "
                        + (a.holds() ? "holds" : "does not hold"), a.doubled() == 0 && a.holds()));
    }

    /**
     * One look at the PG's books and at the payments of the orders sent so far: per order, whether it was seen FAILED
     * while the PG had not booked it yet (a wave's bookings overlap the next one's).
     */
    private void watch(Drill drill, Set<String> refused, Map<String, String> payments, Set<String> failedBeforeBooked) {
        List<PreparedOrder> sentOrders = drill.orders().used();
        PgCounts pg;
        try {
            pg = pgCounts(drill, sentOrders);
        } catch (IllegalStateException listingUnanswered) {
            // A partial listing would count booked orders as not booked: this look is skipped, the next one counts.
            drill.note("a look at the PG's books was skipped: " + listingUnanswered.getMessage());
            return;
        }
        booked = pg.approved.size();
        canceledAtPg = pg.cancels;
        List<PreparedOrder> notBooked = sentOrders.stream()
                .filter(o -> !pg.approved.contains(o.orderId()) && !refused.contains(o.orderId())).toList();
        failedBeforeBooked.addAll(paymentsIn(drill, notBooked, payments, "FAILED"));
        failedBeforeBooking = failedBeforeBooked.size();
    }

    private String compensationText() {
        if (compensationSeconds.isEmpty()) {
            return "-";
        }
        List<Double> sorted = compensationSeconds.stream().sorted().toList();
        return Stats.s(sorted.get(sorted.size() / 2)) + " / " + Stats.s(sorted.get(sorted.size() - 1));
    }

    private record PgCounts(Set<String> approved, int cancels, List<Double> compensationSeconds) {
    }

    /** The drill's orders on the PG's books: how many were approved, how many cancelled, and how long after. */
    private static PgCounts pgCounts(Drill drill, List<PreparedOrder> orders) {
        Map<String, Instant> approvedAt = new HashMap<>();
        Map<String, Instant> canceledAt = new HashMap<>();
        Set<String> ours = new HashSet<>();
        orders.forEach(o -> ours.add(o.orderId()));
        new Books(drill.http(), drill.target()).eachPgTransaction(tx -> {
            String orderId = tx.path("orderId").asText();
            if (ours.contains(orderId)) {
                Instant at = OffsetDateTime.parse(tx.path("transactedAt").asText()).toInstant();
                ("APPROVE".equals(tx.path("type").asText()) ? approvedAt : canceledAt).put(orderId, at);
            }
        });
        List<Double> seconds = new ArrayList<>();
        canceledAt.forEach((order, at) -> {
            Instant approved = approvedAt.get(order);
            if (approved != null) {
                seconds.add(Duration.between(approved, at).toMillis() / 1000.0);
            }
        });
        return new PgCounts(approvedAt.keySet(), canceledAt.size(), seconds);
    }

    /** The orders among {@code orders} whose payment is in {@code status} now. */
    private static Set<String> paymentsIn(Drill drill, List<PreparedOrder> orders, Map<String, String> payments,
                                          String status) {
        Set<String> in = new HashSet<>();
        for (PreparedOrder order : orders) {
            Map<String, String> member = asMember(drill, order);
            String paymentId = payments.computeIfAbsent(order.orderId(), id -> {
                Http.Response r = drill.http().get(drill.target().endpoints().order() + "/api/orders/" + id, member,
                        Duration.ofSeconds(5));
                return r.ok() ? r.json().path("paymentId").asText(null) : null;
            });
            if (paymentId == null) {
                payments.remove(order.orderId());
                continue;
            }
            Http.Response r = drill.http().get(drill.target().endpoints().payment() + "/api/payments/" + paymentId, member,
                    Duration.ofSeconds(5));
            if (r.ok() && status.equals(r.json().path("status").asText())) {
                in.add(order.orderId());
            }
        }
        return in;
    }

    /** Read as the order's member, as they would see it (their token from the stack's issuer). */
    private static Map<String, String> asMember(Drill drill, PreparedOrder order) {
        return Http.bearer(drill.target().tokens().member(order.memberId()));
    }

    private void countNotices(Drill drill, List<PreparedOrder> orders) {
        int oneCancel = 0;
        int failedFirst = 0;
        for (PreparedOrder order : orders) {
            JsonNode notices = Notices.of(drill.http(), drill.target(), order);
            if (notices == null) {
                continue;
            }
            int cancels = 0;
            boolean failed = false;
            for (JsonNode notice : notices) {
                String kind = notice.path("kind").asText();
                cancels += "PAYMENT_CANCELED".equals(kind) ? 1 : 0;
                failed |= "PAYMENT_FAILED".equals(kind);
            }
            oneCancel += cancels == 1 ? 1 : 0;
            failedFirst += failed ? 1 : 0;
        }
        ordersWithOneCancelNotice = oneCancel;
        ordersWithAFailedNotice = failedFirst;
    }
}
