package dev.payments.reconciliation.domain.settling;

import java.time.Duration;
import java.util.Objects;

/**
 * Exponential backoff between settle attempts of one payment: {@code initial x multiplier^(n-1)}, capped. No jitter:
 * one settler works through its payments one after another, so there is no herd to spread.
 *
 * @param initial    the wait after the first unsuccessful attempt
 * @param multiplier growth per further attempt, at least 1
 * @param max        the cap; it bounds how long a payment waits after the PG recovers
 */
public record Backoff(Duration initial, double multiplier, Duration max) {

    public Backoff {
        Objects.requireNonNull(initial, "initial");
        Objects.requireNonNull(max, "max");
        if (initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be positive");
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be at least 1");
        }
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff " + max + " is below the initial " + initial);
        }
    }

    /** The wait after {@code streak} unsuccessful attempts in a row (1 = after the first). */
    public Duration delay(int streak) {
        if (streak < 1) {
            throw new IllegalArgumentException("streak must be at least 1, got " + streak);
        }
        double millis = initial.toMillis() * Math.pow(multiplier, streak - 1);
        return millis >= max.toMillis() ? max : Duration.ofMillis((long) millis);
    }
}
