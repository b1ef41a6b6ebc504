package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Phase;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A new replica's first minute: payment-service warm under a steady closed loop, then stopped and started again
 * (as a pod replaced or added would be) several times; each start's time to ready, and the approvals of its first
 * window against the warm replica's. The same on a stack of its own without class data sharing, side by side.
 */
@Command(name = "warm-start", description = "warm-start: payment-service restarted under a steady closed loop; time "
        + "to ready and the first 30 s of approvals against the warm replica's, with class data archives (as shipped) "
        + "and, on a stack of its own, without.")
final class WarmStart extends BaseScenario {

    private static final String WARM = "warm";
    private static final String FIRST = "first window after start ";

    @Option(names = "--latency-ms", description = "PG approval latency throughout (the issue's measurement: 300).")
    int latencyMs = 300;
    @Option(names = "--clients", description = "Closed-loop clients, each confirming its next order on an answer.")
    int clients = 4;
    @Option(names = "--warm-seconds", description = "Load before the warm window (the JIT's and the archive's training).")
    int warmSeconds = 60;
    @Option(names = "--window-seconds", description = "The warm window, and each window after a start.")
    int windowSeconds = 30;
    @Option(names = "--starts", description = "How many times payment-service is stopped and started again.")
    int starts = 3;
    @Option(names = "--no-baseline", description = "Skip the run without class data sharing.")
    boolean noBaseline;

    private boolean classDataSharing = true;
    private final List<Double> readySeconds = new ArrayList<>();

    @Override
    public String description() {
        return (classDataSharing ? "class data archives (as shipped)" : "no class data archives") + "; PG at "
                + latencyMs + " ms, " + clients + " closed-loop clients; " + warmSeconds + " s to warm, a " + windowSeconds
                + " s warm window, then payment-service stopped and started " + starts + " times, a " + windowSeconds
                + " s window after each start";
    }

    @Override
    public boolean classDataSharing() {
        return classDataSharing;
    }

    @Override
    public Optional<Scenario> baseline() {
        if (noBaseline || !classDataSharing) {
            return Optional.empty();
        }
        WarmStart without = copy();
        without.noBaseline = true;
        without.classDataSharing = false;
        return Optional.of(without);
    }

    /** The closed loop's best rate, with room: clients / PG latency. */
    private int budget(int seconds) {
        return (int) Math.ceil(clients * 1000.0 / Math.max(latencyMs, 1) * seconds * 1.5) + clients;
    }

    @Override
    public int ordersNeeded() {
        return budget(warmSeconds) + budget(windowSeconds) * (starts + 1);
    }

    @Override
    public void run(Drill drill) {
        drill.fault(Drill.pgLatency(latencyMs));
        drill.phase("warming");
        closedLoop(drill, warmSeconds);
        drill.phase(WARM);
        closedLoop(drill, windowSeconds);
        String service = Component.PAYMENT_SERVICE.id();
        for (int start = 1; start <= starts; start++) {
            drill.phase("stop and start " + start);
            drill.control(service, "stop");
            double before = drill.clock().seconds();
            // Returns once the replica's health (readiness included) answers UP: the start's time to ready.
            drill.control(service, "start");
            readySeconds.add(drill.clock().seconds() - before);
            drill.phase(FIRST + start);
            closedLoop(drill, windowSeconds);
        }
        drill.extra("readySeconds", readySeconds);
        drill.extra("readyMedianSeconds", median(readySeconds));
    }

    private static Double median(List<Double> values) {
        if (values.isEmpty()) {
            return null;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private void closedLoop(Drill drill, int seconds) {
        if (drill.load().closedLoop(drill.orders().take(budget(seconds)).iterator(), clients,
                Duration.ofSeconds(seconds), drill.phase())) {
            drill.note("orders ran out during " + drill.phase() + ": that window is shorter");
        }
    }

    @Override
    public List<Target> targets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        Double warmP99 = r.phases().stream().filter(p -> p.name().equals(WARM)).findFirst()
                .map(p -> p.latency().p99()).orElse(null);
        List<Double> firstP99 = new ArrayList<>();
        for (Phase p : r.phases()) {
            if (p.name().startsWith(FIRST) && p.latency().p99() != null) {
                firstP99.add(p.latency().p99());
                targets.add(new Target(p.name() + ": p50 / p99", "p99 <= 2 x the warm window's p99 ("
                        + Stats.ms(warmP99) + ")", Stats.ms(p.latency().p50()) + " / " + Stats.ms(p.latency().p99()),
                        warmP99 == null ? null : p.latency().p99() <= 2 * warmP99));
            }
        }
        Double median = median(firstP99);
        targets.add(new Target("median first-window p99 / warm p99", "<= 2",
                median == null || warmP99 == null ? "n/a" : String.format(Locale.ROOT, "%.2f", median / warmP99),
                median == null || warmP99 == null ? null : median <= 2 * warmP99));
        targets.add(new Target("time to ready, each start", "the baseline run's median / 2 (at most half)",
                readySeconds.stream().map(Stats::s).toList().toString(), null));
        return targets;
    }
}
