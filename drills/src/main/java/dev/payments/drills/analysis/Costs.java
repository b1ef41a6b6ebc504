package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ResourceSampler;
import dev.payments.drills.observe.ResourceSampler.Counters;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one approval costs, per phase: CPU milliseconds of every process (and of its thread groups), PostgreSQL's
 * commits, statements and WAL syncs, over the steady part of the phase (its first fifth is warm-up, its last tenth
 * the drain), divided by the approvals answered in it. A steadier figure than a throughput on a shared machine:
 * other work slows the stack down but does not change what each approval spends. No I/O.
 */
public final class Costs {

    /** Fewer approvals than this in the steady part: no figure (a short burst has no steady part). */
    static final int MIN_APPROVALS = 20;
    static final double MIN_SECONDS = 3;
    /** Launcher thread groups that are the drill, not the system under test. */
    static final Set<String> DRILL_GROUPS = Set.of("load generator", "drill observers");
    static final String WARM_UP = "warm-up";
    /** The name of the figure from the first step through the consumers' catch-up. */
    public static final String THROUGH_CATCH_UP = "steps through the consumers' catch-up";

    /**
     * @param from          start of the steady part (drill seconds)
     * @param cores         CPU cores the measured processes used on average (2 = both cores of this machine)
     * @param machineCores  what the whole machine used, whoever spent it (other engineers' builds too)
     * @param totalMs       every measured process, the launcher (Kafka, the load generator) included
     * @param systemMs      the same without the load generator and the drill's observers (the launcher's threads)
     * @param cpuMs         per process, ms per approval
     * @param threadGroupsMs per process, per thread group, ms per approval
     * @param perApproval   PostgreSQL's counters per approval ({@code db/payments/commits} = 2.0 ...)
     */
    public record Cost(String phase, double from, double to, long approvals, double approvedPerSecond, double cores,
                       Double machineCores, double totalMs, double systemMs, Map<String, Double> cpuMs,
                       Map<String, Map<String, Double>> threadGroupsMs, Map<String, Double> perApproval) {
    }

    private Costs() {
    }

    /**
     * @param caughtUpAt when every consumer group had caught up after the load (drill seconds), or null: then no
     *                   figure "through the consumers' catch-up"
     */
    public static List<Cost> of(List<DrillResult.Phase> phases, List<Attempt> attempts, List<Counters> samples,
                                Clock clock, Double caughtUpAt) {
        List<Cost> costs = new ArrayList<>();
        if (samples.size() < 2) {
            return costs;
        }
        for (DrillResult.Phase phase : phases) {
            double span = phase.end() - phase.start();
            double from = phase.start() + Math.max(1, 0.2 * span);
            double to = phase.end() - 0.1 * span;
            if (to - from < MIN_SECONDS || samples.get(0).t() > from || samples.get(samples.size() - 1).t() < to) {
                continue;
            }
            long approvals = attempts.stream().filter(a -> a.phase().equals(phase.name()))
                    .filter(a -> "approved".equals(a.outcome()))
                    .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= from && t < to).count();
            if (approvals < MIN_APPROVALS) {
                continue;
            }
            costs.add(cost(phase.name(), from, to, approvals, samples));
        }
        throughCatchUp(phases, attempts, samples, clock, caughtUpAt).ifPresent(costs::add);
        return costs;
    }

    /**
     * A step's figure leaves out what the consumers put off: when they fall behind, they do that work after it (at
     * capacity, ten thousand events behind; docs/measurements.md). This one runs from the steady part of the first
     * step after the warm-up until every consumer group had caught up, and divides by every approval answered in it:
     * each approval's whole cost, at the price of mixing the steps.
     */
    static Optional<Cost> throughCatchUp(List<DrillResult.Phase> phases, List<Attempt> attempts,
                                                   List<Counters> samples, Clock clock, Double caughtUpAt) {
        DrillResult.Phase first = phases.stream().filter(p -> !WARM_UP.equals(p.name())).findFirst().orElse(null);
        if (first == null || caughtUpAt == null || samples.size() < 2) {
            return Optional.empty();
        }
        double from = first.start() + Math.max(1, 0.2 * (first.end() - first.start()));
        if (caughtUpAt - from < MIN_SECONDS || samples.get(samples.size() - 1).t() < caughtUpAt) {
            return Optional.empty();
        }
        long approvals = attempts.stream().filter(a -> "approved".equals(a.outcome()))
                .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= from && t < caughtUpAt).count();
        if (approvals < MIN_APPROVALS) {
            return Optional.empty();
        }
        return Optional.of(cost(THROUGH_CATCH_UP, from, caughtUpAt, approvals, samples));
    }

    static Cost cost(String phase, double from, double to, long approvals, List<Counters> samples) {
        Set<String> keys = new TreeSet<>();
        samples.forEach(s -> keys.addAll(s.values().keySet()));
        Map<String, Double> cpuMs = new LinkedHashMap<>();
        Map<String, Map<String, Double>> groups = new LinkedHashMap<>();
        Map<String, Double> perApproval = new LinkedHashMap<>();
        double cpuSeconds = 0;
        double drillSeconds = 0;
        Double machine = null;
        for (String key : keys) {
            Double delta = delta(samples, key, from, to);
            if (delta == null) {
                continue;
            }
            if (key.equals(ResourceSampler.MACHINE)) {
                machine = delta / (to - from);
            } else if (key.startsWith(ResourceSampler.CPU)) {
                String rest = key.substring(ResourceSampler.CPU.length());
                int slash = rest.indexOf('/');
                if (slash < 0) {
                    cpuMs.put(rest, round(1000 * delta / approvals));
                    cpuSeconds += delta;
                } else {
                    String group = rest.substring(slash + 1);
                    groups.computeIfAbsent(rest.substring(0, slash), p -> new LinkedHashMap<>())
                            .put(group, round(1000 * delta / approvals));
                    if (DRILL_GROUPS.contains(group)) {
                        drillSeconds += delta;
                    }
                }
            } else {
                perApproval.put(key, Math.round(100.0 * delta / approvals) / 100.0);
            }
        }
        groups.values().forEach(g -> sortDescending(g));
        return new Cost(phase, Stats.round(from), Stats.round(to), approvals, Stats.round(approvals / (to - from)),
                Math.round(100 * cpuSeconds / (to - from)) / 100.0,
                machine == null ? null : Math.round(100 * machine) / 100.0, round(1000 * cpuSeconds / approvals),
                round(1000 * (cpuSeconds - drillSeconds) / approvals), sortDescending(cpuMs), groups, perApproval);
    }

    /** The counter's increase from {@code from} to {@code to}, each end interpolated between its two samples. */
    static Double delta(List<Counters> samples, String key, double from, double to) {
        Double a = at(samples, key, from);
        Double b = at(samples, key, to);
        return a == null || b == null ? null : Math.max(0, b - a);
    }

    static Double at(List<Counters> samples, String key, double t) {
        Counters before = null;
        for (Counters s : samples) {
            Double v = s.values().get(key);
            if (v == null) {
                continue;
            }
            if (s.t() >= t) {
                if (before == null) {
                    return s.t() - t < 1.5 ? v : null;
                }
                double b = before.values().get(key);
                double share = (t - before.t()) / Math.max(1e-9, s.t() - before.t());
                return b + share * (v - b);
            }
            before = s;
        }
        return before != null && t - before.t() < 1.5 ? before.values().get(key) : null;
    }

    private static Map<String, Double> sortDescending(Map<String, Double> map) {
        List<Map.Entry<String, Double>> entries = new ArrayList<>(map.entrySet());
        entries.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()));
        map.clear();
        entries.forEach(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }

    private static double round(double ms) {
        return Math.round(ms * 100.0) / 100.0;
    }
}
