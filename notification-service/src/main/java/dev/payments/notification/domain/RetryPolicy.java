package dev.payments.notification.domain;

import java.time.Duration;
import java.util.Objects;

/**
 * How often a failed delivery is tried again: at most {@code maxAttempts} attempts, waiting {@code initialBackoff},
 * then twice as long after each further failure.
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff) {

    public RetryPolicy {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        if (initialBackoff.isNegative()) {
            throw new IllegalArgumentException("initialBackoff must not be negative: " + initialBackoff);
        }
    }

    /** The pause after the {@code attempts}-th failed attempt, or null when no attempt is left. */
    Duration backoffAfter(int attempts) {
        if (attempts >= maxAttempts) {
            return null;
        }
        return initialBackoff.multipliedBy(1L << Math.min(attempts - 1, 20));
    }
}
