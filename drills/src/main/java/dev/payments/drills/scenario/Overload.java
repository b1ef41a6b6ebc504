package dev.payments.drills.scenario;

import dev.payments.drills.analysis.Costs;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.observe.Books;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Goodput past what the stack carries: the PG at 0.3 s, open-loop arrivals at 1x, 2x and 5x the approvals per
 * second the stack carries, then closed-loop clients (each sends the next approval as soon as it has an answer, no
 * back-off, as {@code wrk} does) at 1x, 2x and 5x the clients that offer that load. Each step starts with nothing
 * owed (the previous step's answers in, the consumers caught up). Per step: approvals per second answered APPROVED
 * to the client inside the step, approvals the PG booked inside it (the PG's clock), what else came back, and the
 * whole system's CPU per approval; and goodput at each multiple against 1x.
 */
@Command(name = "overload", description = "000: goodput at 1x, 2x, 5x the load the stack carries: open loop and closed loop.")
final class Overload extends BaseScenario {

    @Option(names = "--latency-ms", description = "PG approval latency.")
    int latencyMs = 300;
    @Option(names = "--carried", description = "Approvals per second the stack carries on this machine: the open "
            + "loop's 1x (the capacity drill's closed-loop plateau).")
    int carried = 40;
    @Option(names = "--clients", description = "Closed-loop clients at 1x.")
    int clients = 20;
    @Option(names = "--multiples", split = ",", description = "Multiples of the carried load, per loop.")
    List<Integer> multiples = List.of(1, 2, 5);
    @Option(names = "--step-seconds", description = "Length of each step.")
    int stepSeconds = 20;
    @Option(names = "--warmup-seconds", description = "Closed loop of --clients first, for the JIT.")
    int warmupSeconds = 20;
    @Option(names = "--catch-up-seconds", description = "Before each step, how long to wait for every consumer group "
            + "to reach lag 0.")
    int catchUpSeconds = 90;

    /** One step as the client and the PG saw it. */
    record Step(String phase, String loop, int multiple, String offered, double seconds, double approvedPerSecond,
                double pgBookedPerSecond, Map<String, Long> answers, Double approvedP50, Double approvedP99) {
    }

    private final List<Step> steps = new ArrayList<>();

    @Override
    public String description() {
        return "PG at " + latencyMs + " ms; open loop at " + multiples + " x " + carried + " approvals/s, closed loop at "
                + multiples + " x " + clients + " clients without back-off, " + stepSeconds + " s each";
    }

    /** m times the clients offer m times the carried load: as many orders as the open loop's step, and a half more. */
    private int closedBudget(int m) {
        return m * carried * stepSeconds * 3 / 2;
    }

    @Override
    public int ordersNeeded() {
        int n = carried * warmupSeconds * 3 / 2;
        for (int m : multiples) {
            n += m * carried * stepSeconds + closedBudget(m);
        }
        return n;
    }

    private record Window(String phase, String loop, int multiple, String offered, long fromNanos, long toNanos,
                          Instant fromWall, Instant toWall) {
    }

    @Override
    public void run(Drill drill) {
        steps.clear();
        drill.fault(Drill.pgLatency(latencyMs));
        drill.phase("warm-up");
        drill.load().closedLoop(drill.orders().take(carried * warmupSeconds * 3 / 2).iterator(), clients,
                Duration.ofSeconds(warmupSeconds), "warm-up");
        List<Window> windows = new ArrayList<>();
        for (int m : multiples) {
            int rate = m * carried;
            String phase = "open " + m + "x";
            settle(drill, phase);
            drill.phase(phase);
            Iterator<PreparedOrder> slice = drill.orders().take(rate * stepSeconds).iterator();
            long from = System.nanoTime();
            Instant fromWall = Instant.now();
            drill.load().openLoop(() -> slice.hasNext() ? slice.next() : null, rate, Duration.ofSeconds(stepSeconds),
                    1000, phase);
            windows.add(new Window(phase, "open", m, rate + "/s", from, from + Duration.ofSeconds(stepSeconds).toNanos(),
                    fromWall, fromWall.plusSeconds(stepSeconds)));
        }
        for (int m : multiples) {
            int users = m * clients;
            String phase = "closed " + m + "x";
            settle(drill, phase);
            drill.phase(phase);
            long from = System.nanoTime();
            Instant fromWall = Instant.now();
            if (drill.load().closedLoop(drill.orders().take(closedBudget(m)).iterator(), users,
                    Duration.ofSeconds(stepSeconds), phase)) {
                drill.note("orders ran out during " + phase + " (raise --carried): that step is shorter");
            }
            windows.add(new Window(phase, "closed", m, users + " clients", from,
                    from + Duration.ofSeconds(stepSeconds).toNanos(), fromWall, fromWall.plusSeconds(stepSeconds)));
        }
        settle(drill, "the audit");
        List<Instant> booked = new Books(drill.http(), drill.target()).pgApprovalTimes();
        List<Attempt> attempts = drill.recorder().attempts();
        for (Window w : windows) {
            List<Attempt> mine = attempts.stream().filter(a -> a.phase().equals(w.phase())).toList();
            List<Attempt> approvedInside = mine.stream().filter(a -> "approved".equals(a.outcome()))
                    .filter(a -> a.endNanos() >= w.fromNanos() && a.endNanos() < w.toNanos()).toList();
            long pg = booked.stream().filter(t -> !t.isBefore(w.fromWall()) && t.isBefore(w.toWall())).count();
            Map<String, Long> answers = Stats.outcomes(mine);
            var latency = Stats.latency(mine.stream().filter(a -> "approved".equals(a.outcome())).toList());
            steps.add(new Step(w.phase(), w.loop(), w.multiple(), w.offered(), stepSeconds,
                    Stats.round(approvedInside.size() / (double) stepSeconds), Stats.round(pg / (double) stepSeconds),
                    answers, latency.p50(), latency.p99()));
        }
        drill.extra("goodput", steps);
    }

    /** The step starts with nothing owed: the consumers have caught up with everything before it. */
    private void settle(Drill drill, String before) {
        drill.phase("catching up before " + before);
        if (drill.awaitConsumersCaughtUp(Duration.ofSeconds(catchUpSeconds)) == null) {
            drill.note("the consumers had not caught up " + catchUpSeconds + " s before " + before);
        }
    }

    @Override
    public List<Target> targets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        Map<String, Costs.Cost> costs = new LinkedHashMap<>();
        if (r.costs() != null) {
            r.costs().forEach(c -> costs.put(c.phase(), c));
        }
        for (String loop : List.of("open", "closed")) {
            Step base = steps.stream().filter(s -> s.loop().equals(loop) && s.multiple() == 1).findFirst().orElse(null);
            for (Step s : steps) {
                if (!s.loop().equals(loop)) {
                    continue;
                }
                Costs.Cost cost = costs.get(s.phase());
                targets.add(new Target(s.phase() + " (" + s.offered() + ")", "",
                        String.format(Locale.ROOT, "approved %.1f/s (%s of 1x), PG booked %.1f/s (%s), CPU %s ms/approval,"
                                        + " approved p50 %s p99 %s, answers %s",
                                s.approvedPerSecond(), ratio(s.approvedPerSecond(), base == null ? null : base.approvedPerSecond()),
                                s.pgBookedPerSecond(), ratio(s.pgBookedPerSecond(), base == null ? null : base.pgBookedPerSecond()),
                                cost == null ? "-" : String.valueOf(cost.systemMs()), Stats.ms(s.approvedP50()),
                                Stats.ms(s.approvedP99()), s.answers()), null));
            }
            Step top = steps.stream().filter(s -> s.loop().equals(loop))
                    .max(java.util.Comparator.comparingInt(Step::multiple)).orElse(null);
            if (base != null && top != null && top != base && base.approvedPerSecond() > 0 && base.pgBookedPerSecond() > 0) {
                double client = top.approvedPerSecond() / base.approvedPerSecond();
                double pg = top.pgBookedPerSecond() / base.pgBookedPerSecond();
                targets.add(new Target(loop + " loop goodput at " + top.multiple() + "x", ">= 80 % of 1x, client and PG",
                        String.format(Locale.ROOT, "client %.0f %%, PG %.0f %%", 100 * client, 100 * pg),
                        client >= 0.8 && pg >= 0.8));
            }
        }
        return targets;
    }

    private static String ratio(double value, Double base) {
        return base == null || base <= 0 ? "-" : String.format(Locale.ROOT, "%.2f", value / base);
    }
}
