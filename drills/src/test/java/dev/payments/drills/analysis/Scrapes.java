package dev.payments.drills.analysis;

import dev.payments.drills.observe.Sample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Series of {@code payment_approval_total} scrapes for tests, written like promtool's input series: one function per
 * outcome label giving its value at scrape {@code i} (null: the series does not exist in that scrape).
 */
final class Scrapes {

    private final double interval;
    private final int count;
    private final Map<String, IntFunction<Double>> series = new LinkedHashMap<>();
    private IntFunction<Boolean> up = i -> true;

    private Scrapes(double interval, int count) {
        this.interval = interval;
        this.count = count;
    }

    /** {@code count} scrapes, {@code interval} seconds apart, the first at drill second 0. */
    static Scrapes every(double interval, int count) {
        return new Scrapes(interval, count);
    }

    Scrapes series(String outcome, IntFunction<Double> valueAt) {
        series.put(outcome, valueAt);
        return this;
    }

    /** payment-service did not answer these scrapes (down, restarting). */
    Scrapes down(IntFunction<Boolean> isDown) {
        IntFunction<Boolean> before = up;
        up = i -> before.apply(i) && !isDown.apply(i);
        return this;
    }

    List<Sample> samples() {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean answered = up.apply(i);
            Map<String, Double> approvals = new LinkedHashMap<>();
            if (answered) {
                for (Map.Entry<String, IntFunction<Double>> s : series.entrySet()) {
                    Double v = s.getValue().apply(i);
                    if (v != null) {
                        approvals.put(s.getKey(), v);
                    }
                }
            }
            samples.add(sample(i * interval, answered, approvals));
        }
        return samples;
    }

    static Sample sample(double t, boolean up, Map<String, Double> approvals) {
        return new Sample(t, up, up ? 0.0 : null, up ? 1.0 : null, up ? 0.0 : null, up ? 20.0 : null,
                up ? "CLOSED" : null, null, null, null, approvals, null);
    }
}
