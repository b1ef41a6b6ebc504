package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Phase;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.observe.Timeline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * 000's open question: the PG at 0.3 s, closed-loop concurrency 50 -> 100 -> 200 -> 300 (TPS, p95, the knee), and
 * an arrival-rate run beside it so that a slow system cannot hide its queueing by sending less.
 */
@Command(name = "capacity", description = "000's open question: PG 0.3 s, 50 -> 300 concurrent, and arrival rates.")
final class Capacity extends BaseScenario {

    @Option(names = "--latency-ms", description = "PG approval latency.")
    int latencyMs = 300;
    @Option(names = "--concurrency", split = ",", description = "Closed-loop users per step.")
    List<Integer> concurrency = List.of(50, 100, 200, 300);
    @Option(names = "--rates", split = ",", description = "Arrivals per second per open-loop step.")
    List<Integer> rates = List.of(25, 50, 100, 150);
    @Option(names = "--step-seconds", description = "Length of each step.")
    int stepSeconds = 15;
    @Option(names = "--warmup-seconds", description = "Closed loop of 20 users first, for the JIT.")
    int warmupSeconds = 10;
    @Option(names = "--tps-guess", description = "Orders placed per closed-loop second (they are placed before the load).")
    int tpsGuess = 120;
    @Option(names = "--catch-up-seconds", description = "After the load, how long to wait for every consumer group "
            + "to reach lag 0: the CPU figure through the catch-up counts the work the consumers put off.")
    int catchUpSeconds = 300;

    @Override
    public String description() {
        return "PG at " + latencyMs + " ms; closed loop at " + concurrency + " concurrent for " + stepSeconds
                + " s each, then arrival rates " + rates + "/s for " + stepSeconds + " s each (000's open question)";
    }

    /** Each step gets its own slice of the orders, so a fast step cannot starve the next one. */
    private int closedBudget(int c) {
        return (int) (Math.min(c * 1000.0 / Math.max(latencyMs, 1), tpsGuess) * stepSeconds * 1.25);
    }

    private int warmupBudget() {
        return (int) Math.min(20 * 1000.0 / Math.max(latencyMs, 1), tpsGuess) * warmupSeconds;
    }

    @Override
    public int ordersNeeded() {
        int n = warmupBudget();
        for (int c : concurrency) {
            n += closedBudget(c);
        }
        for (int r : rates) {
            n += r * stepSeconds;
        }
        return n;
    }

    @Override
    public void run(Drill drill) {
        drill.fault(Drill.pgLatency(latencyMs));
        drill.phase("warm-up");
        drill.load().closedLoop(drill.orders().take(warmupBudget()).iterator(), 20, Duration.ofSeconds(warmupSeconds),
                "warm-up");
        // The steps start with nothing owed: the placed orders' and the warm-up's events are consumed, so the figure
        // through the catch-up holds the steps' work and nothing before them.
        boolean nothingOwed = awaitConsumers(drill, "after the warm-up");
        for (int c : concurrency) {
            drill.phase("C=" + c);
            if (drill.load().closedLoop(drill.orders().take(closedBudget(c)).iterator(), c,
                    Duration.ofSeconds(stepSeconds), "C=" + c)) {
                drill.note("orders ran out during C=" + c + " (raise --tps-guess): that step is shorter");
            }
        }
        for (int r : rates) {
            drill.phase("rate=" + r + "/s");
            java.util.Iterator<dev.payments.drills.load.PreparedOrder> slice =
                    drill.orders().take(r * stepSeconds).iterator();
            drill.load().openLoop(() -> slice.hasNext() ? slice.next() : null, r, Duration.ofSeconds(stepSeconds),
                    1000, "rate=" + r + "/s");
        }
        if (awaitConsumers(drill, "after the load") && nothingOwed) {
            drill.mark(Timeline.CAUGHT_UP);
        }
    }

    private boolean awaitConsumers(Drill drill, String when) {
        drill.phase("consumers catching up " + when);
        if (drill.awaitConsumersCaughtUp(Duration.ofSeconds(catchUpSeconds)) != null) {
            return true;
        }
        drill.note("the consumers had not caught up " + catchUpSeconds + " s " + when
                + ": no CPU figure through the catch-up");
        return false;
    }

    @Override
    public List<Target> targets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        Map<String, Object> steps = new LinkedHashMap<>();
        Double previousP95 = null;
        double previousTps = 0;
        String knee = null;
        for (Phase p : r.phases()) {
            if (!p.name().startsWith("C=")) {
                continue;
            }
            int c = Integer.parseInt(p.name().substring(2));
            double bound = c * 1000.0 / latencyMs;
            double tps = p.approvedPerSecondTimes100() / 100.0;
            double ratio = tps / bound;
            // The knee: more users no longer buy throughput (< +10 %), or p95 more than doubles.
            if (knee == null && previousP95 != null && p.latency().p95() != null
                    && (tps < 1.1 * previousTps || p.latency().p95() > 2 * previousP95)) {
                knee = p.name();
            }
            previousP95 = p.latency().p95();
            previousTps = tps;
            steps.put(p.name(), String.format(Locale.ROOT, "%.1f approved/s of %.0f/s bound (%.0f %%), p95 %s", tps, bound,
                    100 * ratio, Stats.ms(p.latency().p95())));
            if (c <= 100) {
                targets.add(new Target("throughput at C=" + c, ">= 90 % of " + (long) bound + "/s",
                        String.format(Locale.ROOT, "%.1f/s (%.0f %%)", tps, 100 * ratio), ratio >= 0.9));
            }
        }
        for (Phase p : r.phases()) {
            if (p.name().startsWith("rate=")) {
                steps.put(p.name(), String.format(Locale.ROOT, "%.1f approved/s, p95 %s, p99 %s (from the scheduled send time)",
                        p.approvedPerSecondTimes100() / 100.0, Stats.ms(p.latency().p95()),
                        Stats.ms(p.latency().p99())));
            }
        }
        targets.add(new Target("knee (closed loop)", "first step where TPS grows < 10 % over the previous step or p95 more than doubles",
                knee == null ? "not reached" : knee, null));
        targets.add(new Target("steps", "", steps.toString(), null));
        return targets;
    }
}
