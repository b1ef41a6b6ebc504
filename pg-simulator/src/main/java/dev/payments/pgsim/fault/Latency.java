package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Random;

/**
 * How long the PG takes before answering. The distribution is inferred when omitted: {@code fixedMs}
 * -> FIXED, {@code minMs}+{@code maxMs} -> UNIFORM, {@code meanMs}+{@code stdDevMs} -> NORMAL.
 * NORMAL and EXPONENTIAL samples are clamped to [minMs, maxMs] when those are given (never below 0).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Latency(Distribution distribution, Long fixedMs, Long minMs, Long maxMs, Long meanMs, Long stdDevMs) {

    public enum Distribution {
        FIXED,
        UNIFORM,
        NORMAL,
        EXPONENTIAL
    }

    public Latency {
        distribution = distribution != null ? distribution : infer(fixedMs, minMs, maxMs, meanMs, stdDevMs);
        for (Long value : new Long[] {fixedMs, minMs, maxMs, meanMs, stdDevMs}) {
            if (value != null && value < 0) {
                throw new IllegalArgumentException("latency values must be >= 0 ms");
            }
        }
        if (minMs != null && maxMs != null && minMs > maxMs) {
            throw new IllegalArgumentException("latency.minMs must be <= latency.maxMs");
        }
        switch (distribution) {
            case FIXED -> require(fixedMs != null, "FIXED latency needs fixedMs");
            case UNIFORM -> require(minMs != null && maxMs != null, "UNIFORM latency needs minMs and maxMs");
            case NORMAL -> require(meanMs != null && stdDevMs != null, "NORMAL latency needs meanMs and stdDevMs");
            case EXPONENTIAL -> require(meanMs != null, "EXPONENTIAL latency needs meanMs");
        }
    }

    public static Latency fixed(long ms) {
        return new Latency(Distribution.FIXED, ms, null, null, null, null);
    }

    public static Latency uniform(long minMs, long maxMs) {
        return new Latency(Distribution.UNIFORM, null, minMs, maxMs, null, null);
    }

    public static Latency normal(long meanMs, long stdDevMs) {
        return new Latency(Distribution.NORMAL, null, null, null, meanMs, stdDevMs);
    }

    public static Latency exponential(long meanMs) {
        return new Latency(Distribution.EXPONENTIAL, null, null, null, meanMs, null);
    }

    public Duration sample(Random random) {
        double ms = switch (distribution) {
            case FIXED -> fixedMs;
            case UNIFORM -> minMs + (maxMs - minMs) * random.nextDouble();
            case NORMAL -> meanMs + stdDevMs * random.nextGaussian();
            case EXPONENTIAL -> -meanMs * Math.log(1.0 - random.nextDouble());
        };
        double low = minMs != null ? minMs : 0;
        double high = maxMs != null ? maxMs : Double.MAX_VALUE;
        return Duration.ofMillis(Math.round(Math.min(high, Math.max(low, ms))));
    }

    private static Distribution infer(Long fixedMs, Long minMs, Long maxMs, Long meanMs, Long stdDevMs) {
        if (fixedMs != null) {
            return Distribution.FIXED;
        }
        if (meanMs != null && stdDevMs != null) {
            return Distribution.NORMAL;
        }
        if (minMs != null && maxMs != null) {
            return Distribution.UNIFORM;
        }
        throw new IllegalArgumentException(
                "latency needs fixedMs, or minMs and maxMs, or meanMs and stdDevMs, or distribution EXPONENTIAL with meanMs");
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
