package dev.payments.reconciliation.adapter.in.schedule;

import java.time.Duration;
import java.util.Objects;

/**
 * When a scheduled job runs: first {@code firstAfter} after start-up, then {@code every} after the previous run ended.
 * A job's {@code @Scheduled} reads its cadence from a bean by name (an annotation cannot take constructor values), so
 * the numbers still come from the validated configuration properties.
 */
public record Cadence(Duration firstAfter, Duration every) {

    public Cadence {
        Objects.requireNonNull(firstAfter, "first after");
        Objects.requireNonNull(every, "every");
    }
}
