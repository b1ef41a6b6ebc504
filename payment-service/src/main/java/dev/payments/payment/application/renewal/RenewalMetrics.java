package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.renewal.RenewalRun;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code renewal_charges_total{outcome}} per attempt, {@code renewal_due} and {@code renewal_remaining} for the run in
 * progress, {@code renewal_runs_total{outcome}}. Every label exists at zero from start-up (field report 000: a label
 * that first appears with its first failure gives {@code increase()} no prior sample).
 */
public class RenewalMetrics {

    public enum Charge {
        CHARGED, DECLINED, GAVE_UP, UNKNOWN, NOTHING_CHARGED,
        /** TX-2 failed: the payment stays REQUESTED and reconciliation settles it. */
        DB_FAILED
    }

    private final Map<Charge, Counter> charges = new EnumMap<>(Charge.class);
    private final Map<RenewalRun.Outcome, Counter> runs = new EnumMap<>(RenewalRun.Outcome.class);
    private final AtomicLong due = new AtomicLong();
    private final AtomicLong remaining = new AtomicLong();
    private final AtomicLong running = new AtomicLong();

    public RenewalMetrics(MeterRegistry meters) {
        for (Charge charge : Charge.values()) {
            charges.put(charge, Counter.builder("renewal.charges").description("Renewal charge attempts by outcome")
                    .tag("outcome", charge.name().toLowerCase(Locale.ROOT)).register(meters));
        }
        for (RenewalRun.Outcome outcome : RenewalRun.Outcome.values()) {
            if (outcome != RenewalRun.Outcome.RUNNING) {
                runs.put(outcome, Counter.builder("renewal.runs").description("Renewal runs by how they ended")
                        .tag("outcome", outcome.name().toLowerCase(Locale.ROOT)).register(meters));
            }
        }
        Gauge.builder("renewal.due", due, AtomicLong::get).description("Periods due when the last run started")
                .register(meters);
        Gauge.builder("renewal.remaining", remaining, AtomicLong::get)
                .description("Periods still due in the run in progress (or when the last one ended)").register(meters);
        Gauge.builder("renewal.runs.active", running, AtomicLong::get).description("Renewal runs in progress here")
                .register(meters);
    }

    void started(long dueNow) {
        running.incrementAndGet();
        due.set(dueNow);
        remaining.set(dueNow);
    }

    void claimed() {
        remaining.updateAndGet(left -> Math.max(0, left - 1));
    }

    void charged(Charge charge) {
        charges.get(charge).increment();
    }

    void ended(RenewalRun run, boolean wasStarted) {
        if (wasStarted) {
            running.decrementAndGet();
        }
        remaining.set(run.counts().remaining());
        runs.get(run.outcome()).increment();
    }
}
