package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Random;

/**
 * How long the PG takes before answering: {@code fixedMs}, or uniform between {@code minMs} and {@code maxMs} (the
 * field reports' "5 s late" and "100-500 ms").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Latency(Long fixedMs, Long minMs, Long maxMs) {

    public Latency {
        for (Long value : new Long[] {fixedMs, minMs, maxMs}) {
            if (value != null && value < 0) {
                throw new IllegalArgumentException("latency values must be >= 0 ms");
            }
        }
        if (fixedMs == null && (minMs == null || maxMs == null)) {
            throw new IllegalArgumentException("latency needs fixedMs, or minMs and maxMs");
        }
        if (minMs != null && maxMs != null && minMs > maxMs) {
            throw new IllegalArgumentException("latency.minMs must be <= latency.maxMs");
        }
    }

    public static Latency fixed(long ms) {
        return new Latency(ms, null, null);
    }

    public static Latency uniform(long minMs, long maxMs) {
        return new Latency(null, minMs, maxMs);
    }

    public Duration sample(Random random) {
        return Duration.ofMillis(fixedMs != null ? fixedMs : Math.round(minMs + (maxMs - minMs) * random.nextDouble()));
    }
}
