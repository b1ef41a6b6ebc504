package dev.payments.payment.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * One round's latencies, in nanoseconds, reduced to percentiles by sorting (nearest rank). A round holds at most a few
 * hundred thousand samples, so sorting is cheaper and simpler than a histogram, and exact.
 */
record Latencies(int count, long min, long p50, long p90, long p99, long p999, long max, double perSecond) {

    static Latencies of(long[] nanos, int count, long wallNanos) {
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        return new Latencies(count, sorted[0], rank(sorted, 0.50), rank(sorted, 0.90), rank(sorted, 0.99), rank(sorted, 0.999),
                sorted[count - 1], count / (wallNanos / 1e9));
    }

    /** Nearest-rank percentile: the smallest sample with at least {@code p} of all samples at or below it. */
    static long rank(long[] sorted, double p) {
        int index = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** The median of one statistic over several rounds (mean of the middle two for an even count). */
    static double median(List<Latencies> rounds, ToDoubleFunction<Latencies> statistic) {
        double[] values = rounds.stream().mapToDouble(statistic).sorted().toArray();
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static String micros(double nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1_000.0);
    }

    static String millis(double nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1_000_000.0);
    }

    String inMillis() {
        return String.format(Locale.ROOT, "n=%d p50=%s p90=%s p99=%s p99.9=%s max=%s ms  %.0f req/s", count,
                millis(p50), millis(p90), millis(p99), millis(p999), millis(max), perSecond);
    }

    String inMicros() {
        return String.format(Locale.ROOT, "n=%d p50=%s p90=%s p99=%s p99.9=%s max=%s us  %.0f calls/s", count,
                micros(p50), micros(p90), micros(p99), micros(p999), micros(max), perSecond);
    }
}
