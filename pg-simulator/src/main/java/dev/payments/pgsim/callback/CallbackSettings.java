package dev.payments.pgsim.callback;

import java.time.Duration;

/**
 * Delivery policy: at most {@code maxAttempts} POSTs, waiting {@code initialBackoff} x 2^(n-1)
 * between them, each bounded by {@code timeout}.
 */
public record CallbackSettings(String secret, int maxAttempts, Duration initialBackoff, Duration timeout) {

    public CallbackSettings {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("callback secret must not be empty");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("callback maxAttempts must be >= 1");
        }
    }
}
