package dev.payments.drills.scenario;

import dev.payments.drills.analysis.MemberLimits;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.observe.ClusterWatch;
import dev.payments.drills.observe.Notices;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * Every service as several replicas behind HAProxy, the load spread over them, the per-member limit in force
 * for a few members who ask for more than it allows; mid-run the payment-service replica holding the outbox relay lease
 * and the reconciliation-service replica that ran the last settle cycle are killed with SIGKILL and started again.
 * Nothing about money may change: no approval lost or doubled, the ledger holds, each notice once, no member above the
 * limit across replicas, each scheduled job once per cycle. Then the same on a single-replica stack for comparison.
 */
@Command(name = "scale-out", description = "scale-out: 3 payment-service and 2 of every other service behind HAProxy; "
        + "kill -9 the relay holder and the reconciliation job runner mid-run; then the single-replica stack.")
final class ScaleOut extends BaseScenario {

    /** The jobs this drill counts, by the service that runs them, with the interval each runs on here. */
    private static final Map<String, Map<String, Duration>> JOBS = Map.of(
            "reconciliation-service", Map.of("reconciliation.settle", Duration.ofSeconds(2),
                    "reconciliation.ledger-audit", Duration.ofSeconds(10)),
            "notification-service", Map.of("notification.delivery", Duration.ofMillis(500)),
            "payment-service", Map.of("payment.rate-limit-cleanup", Duration.ofSeconds(10)));

    @Option(names = "--payment-replicas", description = "payment-service JVMs.")
    int paymentReplicas = 3;
    @Option(names = "--other-replicas", description = "JVMs of order-, notification- and reconciliation-service.")
    int otherReplicas = 2;
    @Option(names = "--rate", description = "Approvals per second from the ordinary members, throughout.")
    double rate = 5;
    @Option(names = "--members", description = "Ordinary members the orders are spread over (each stays under the limit).")
    int members = 60;
    @Option(names = "--hot-members", description = "Members who also ask for --hot-per-minute more approvals.")
    int hotMembers = 3;
    @Option(names = "--hot-per-minute", description = "Extra approvals per minute each hot member asks for.")
    int hotPerMinute = 20;
    @Option(names = "--per-member-per-minute", description = "The per-member limit (000: 10).")
    int perMemberPerMinute = 10;
    @Option(names = "--before", description = "Seconds of load before the kills.")
    int beforeSeconds = 30;
    @Option(names = "--after", description = "Seconds of load after the killed replicas are back.")
    int afterSeconds = 60;
    @Option(names = "--pg-latency-ms", description = "PG approval latency throughout.")
    int pgLatencyMs = 300;
    @Option(names = "--no-baseline", description = "Skip the same run on a single-replica stack afterwards.")
    boolean noBaseline;

    private ClusterWatch watch;
    private double killedAt = Double.NaN;
    private final Map<String, String> killed = new LinkedHashMap<>();

    @Override
    public String description() {
        return (paymentReplicas == 1 && otherReplicas == 1 ? "single-replica stack"
                : paymentReplicas + " payment-service and " + otherReplicas + " of every other service behind HAProxy")
                + ", " + rate + " approvals/s from " + members + " members plus " + hotMembers + " members asking "
                + hotPerMinute + "/min more (limit " + perMemberPerMinute + "/min), PG at " + pgLatencyMs + " ms; after "
                + beforeSeconds + " s kill -9 the relay holder and the reconciliation job runner, restart them, "
                + afterSeconds + " s more";
    }

    @Override
    public Map<Component, Integer> replicas() {
        Map<Component, Integer> replicas = new EnumMap<>(Component.class);
        replicas.put(Component.PAYMENT_SERVICE, paymentReplicas);
        replicas.put(Component.ORDER_SERVICE, otherReplicas);
        replicas.put(Component.NOTIFICATION_SERVICE, otherReplicas);
        replicas.put(Component.RECONCILIATION_SERVICE, otherReplicas);
        return replicas;
    }

    @Override
    public Optional<Scenario> baseline() {
        if (noBaseline || (paymentReplicas == 1 && otherReplicas == 1)) {
            return Optional.empty();
        }
        ScaleOut single = copy();
        single.paymentReplicas = 1;
        single.otherReplicas = 1;
        single.noBaseline = true;
        return Optional.of(single);
    }

    @Override
    protected void configure(Settings settings) {
        settings.set(Component.PAYMENT_SERVICE, "payment.approval.per-member-per-minute", perMemberPerMinute);
        settings.set(Component.PAYMENT_SERVICE, "payment.rate-limit.cleanup-every", interval("payment.rate-limit-cleanup"));
        settings.set(Component.RECONCILIATION_SERVICE, "reconciliation.settler.interval", interval("reconciliation.settle"));
        settings.set(Component.RECONCILIATION_SERVICE, "reconciliation.ledger.interval",
                interval("reconciliation.ledger-audit"));
        settings.set(Component.NOTIFICATION_SERVICE, "notification.delivery.poll-interval", interval("notification.delivery"));
    }

    private static String interval(String job) {
        return JOBS.values().stream().filter(jobs -> jobs.containsKey(job)).findFirst().orElseThrow()
                .get(job).toMillis() + "ms";
    }

    @Override
    public int members() {
        return members;
    }

    private int seconds() {
        return beforeSeconds + afterSeconds;
    }

    private int hotOrders() {
        return (int) Math.ceil(hotMembers * hotPerMinute * (seconds() + 180) / 60.0);
    }

    /**
     * The load runs on while the killed replicas restart, which takes a JVM start on a loaded machine (two to three
     * minutes here while the other replicas serve): orders for that too, or the phase after it would have none.
     */
    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * (seconds() + 180));
    }

    @Override
    public void run(Drill drill) throws Exception {
        drill.pgFaults(Drill.pgLatency(pgLatencyMs));
        placeHotOrders(drill);
        Map<String, List<String>> jobs = new LinkedHashMap<>();
        JOBS.forEach((service, byJob) -> jobs.put(service, List.copyOf(byJob.keySet())));
        watch = new ClusterWatch(drill.http(), drill.target(), drill.clock(), jobs);
        double arrivals = rate + hotMembers * hotPerMinute / 60.0;

        drill.phase("before");
        drill.mark("jobs counted from");
        Thread load = drill.arrivals(arrivals);
        drill.sleep(Duration.ofSeconds(beforeSeconds));

        String relayHolder = watch.relayHolder();
        String jobRunner = lastSettleRunner(drill);
        List<String> victims = new ArrayList<>();
        if (relayHolder != null) {
            killed.put("relay lease holder", relayHolder);
            victims.add(relayHolder);
        } else {
            drill.note("no payment-service replica reported the outbox relay active before the kill");
        }
        killed.put("reconciliation job runner", jobRunner);
        victims.add(jobRunner);
        drill.phase("kill -9 " + String.join(", ", victims));
        drill.faultInjected();
        killedAt = drill.clock().seconds();
        all(victims, name -> drill.control(name, "kill"));
        all(victims, name -> drill.control(name, "start"));
        drill.recoveredThenStop(load, Duration.ofSeconds(afterSeconds));
        drill.mark("jobs counted until");
    }

    /** The hot members' extra orders, mixed into the rest, and waited for until payment-service has seen them. */
    private void placeHotOrders(Drill drill) {
        if (hotMembers <= 0 || hotPerMinute <= 0) {
            return;
        }
        drill.phase("placing hot members' orders");
        // OrderBook names members by index modulo the count: these are the first hotMembers ordinary members.
        ScenarioRun.placeOrders(drill, hotOrders(), client -> drill.orders().place(client, hotOrders(), hotMembers,
                15_000, 8, n -> drill.detail(n + " hot orders")), Duration.ofSeconds(60));
        drill.orders().shuffleUnused(new Random(15));
    }

    /** The reconciliation replica that took the settle job's lock last: the one running reconciliation's jobs. */
    private static String lastSettleRunner(Drill drill) {
        List<String> replicas = drill.target().replicas("reconciliation-service");
        try (Connection db = drill.target().connect("reconciliation");
             PreparedStatement query = db.prepareStatement("SELECT locked_by FROM shedlock WHERE name = ?")) {
            query.setString(1, "reconciliation.settle");
            try (ResultSet row = query.executeQuery()) {
                if (row.next() && replicas.contains(row.getString(1))) {
                    return row.getString(1);
                }
            }
        } catch (SQLException e) {
            drill.note("could not read reconciliation's job locks (" + e.getMessage() + "); killing " + replicas.get(0));
        }
        return replicas.get(0);
    }

    private static void all(List<String> names, java.util.function.Consumer<String> action) {
        CompletableFuture.allOf(names.stream().map(name -> CompletableFuture.runAsync(() -> action.accept(name)))
                .toArray(CompletableFuture[]::new)).join();
    }

    @Override
    public void afterSettling(Drill drill) {
        double from = markAt(drill, "jobs counted from");
        double until = markAt(drill, "jobs counted until");
        Map<String, Long> runs = watch.runs();
        Map<String, Map<String, Long>> byReplica = watch.runsByReplica();
        // The counters were read up to the settle phase's end, a little after the load stopped.
        double window = drill.clock().seconds() - from;
        watch.close();

        List<Attempt> attempts = drill.recorder().attempts();
        MemberLimits limits = MemberLimits.of(attempts, perMemberPerMinute);
        drill.check("every member <= " + perMemberPerMinute + "/min across replicas", limits.holds(),
                limits.accepted() + " accepted and " + limits.limited() + " refused (429) for " + limits.members()
                        + " members, " + limits.limitedMembers() + " of them refused at least once; most in one 60 s "
                        + "window: " + limits.maxInAnyMinute() + (limits.holds() ? "" : "; over the limit: "
                        + limits.violations()));
        drill.extra("memberLimit", limits);

        List<PreparedOrder> approvedOrders = attempts.stream().filter(a -> "approved".equals(a.outcome()))
                .map(Attempt::order).distinct().toList();
        Notices notices = Notices.of(drill.http(), drill.target(), approvedOrders);
        drill.check("each notice exactly once", notices.exactlyOnce(), notices.notices() + " notifications for "
                + notices.orders() + " approved orders: " + notices.duplicated() + " order/kind pairs twice, "
                + notices.unsent() + " not sent, " + notices.missing() + " orders without any"
                + (notices.examples().isEmpty() ? "" : " e.g. " + notices.examples()));
        drill.extra("notices", notices);

        Map<String, Object> jobs = new LinkedHashMap<>();
        JOBS.forEach((service, byJob) -> byJob.forEach((job, every) -> {
            long ran = runs.getOrDefault(job, 0L);
            double cycles = window / (every.toMillis() / 1000.0);
            // One per cycle, plus one for the cycle cut by each edge of the window.
            long most = (long) Math.floor(cycles) + 2;
            drill.check("job " + job + " once per cycle", ran >= 1 && ran <= most, String.format(Locale.ROOT,
                    "%d runs over all replicas in %.0f s = %.1f cycles of %s (at most %d); by replica %s", ran, window,
                    cycles, every, most, byReplica.getOrDefault(job, Map.of())));
            jobs.put(job, Map.of("runs", ran, "cycles", Math.round(cycles * 10) / 10.0, "byReplica",
                    byReplica.getOrDefault(job, Map.of())));
        }));
        drill.extra("jobs", jobs);

        String relayVictim = killed.get("relay lease holder");
        Double handOver = watch.relayActiveAgainAfter(killedAt, relayVictim);
        String newHolder = watch.relayHolderAfter(killedAt, relayVictim);
        drill.extra("killed", killed);
        drill.extra("relayHandOverSeconds", handOver);
        drill.extra("relayHolderAfter", newHolder);
        drill.check("the relay is active again after the kill", handOver != null, handOver == null
                ? "no payment-service replica reported outbox_relay_active = 1 after the kill"
                : String.format(Locale.ROOT, "%s took over %.1f s after the kill of %s (polled every 250 ms)",
                newHolder, handOver, relayVictim));
        drill.note("scheduled jobs counted from " + Math.round(from) + " s to " + Math.round(drill.clock().seconds())
                + " s (load until " + Math.round(until) + " s)");
    }

    private static double markAt(Drill drill, String name) {
        return drill.timeline().marks().stream().filter(m -> m.name().equals(name)).mapToDouble(m -> m.t())
                .findFirst().orElse(0);
    }
}
