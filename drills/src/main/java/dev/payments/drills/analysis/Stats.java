package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Percentiles (nearest rank, on every recorded value: no histogram buckets) and outcome counts. */
public final class Stats {

    private Stats() {
    }

    public static DrillResult.Latency latency(List<Attempt> attempts) {
        if (attempts.isEmpty()) {
            return new DrillResult.Latency(0, null, null, null, null, null);
        }
        double[] ms = attempts.stream().mapToDouble(Attempt::latencyMillis).sorted().toArray();
        return new DrillResult.Latency(ms.length, round(percentile(ms, 50)), round(percentile(ms, 95)),
                round(percentile(ms, 99)), round(ms[ms.length - 1]), round(Arrays.stream(ms).average().orElse(0)));
    }

    public static double percentile(double[] sorted, double p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    public static Map<String, Long> outcomes(List<Attempt> attempts) {
        Map<String, Long> counts = new TreeMap<>();
        attempts.forEach(a -> counts.merge(a.outcome(), 1L, Long::sum));
        return counts;
    }

    public static Double round(double v) {
        return Math.round(v * 10.0) / 10.0;
    }

    public static String ms(Double v) {
        if (v == null) {
            return "-";
        }
        return v >= 1000 ? String.format(Locale.ROOT, "%.2f s", v / 1000) : String.format(Locale.ROOT, "%.1f ms", v);
    }

    public static String s(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.2f s", v);
    }
}
