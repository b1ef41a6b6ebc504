package dev.payments.reconciliation.adapter.out.alert;

import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.SettleAttempt;
import dev.payments.reconciliation.application.settling.SettleObserver;
import dev.payments.reconciliation.domain.settling.AttemptResult;
import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Map;

/**
 * {@code reconciliation_settle_attempts_total{result}} and {@code reconciliation_outcomes_republished_total{result}}
 * (every result registered at 0 at start-up),
 * {@code reconciliation_settle_cycles_total{outcome}} and the sync call's latency.
 */
public class SettleMetrics implements SettleObserver {

    private final Map<AttemptResult, Counter> attempts = new EnumMap<>(AttemptResult.class);
    private final Map<RepublishOutcome.Result, Counter> republishes = new EnumMap<>(RepublishOutcome.Result.class);
    private final Counter completed;
    private final Counter stopped;
    private final Timer latency;

    public SettleMetrics(MeterRegistry meters) {
        for (AttemptResult result : AttemptResult.values()) {
            attempts.put(result, Counter.builder("reconciliation.settle.attempts").description("Sync calls by result")
                    .tag("result", result.name().toLowerCase()).register(meters));
        }
        for (RepublishOutcome.Result result : RepublishOutcome.Result.values()) {
            republishes.put(result, Counter.builder("reconciliation.outcomes.republished")
                    .description("Republish calls for orders that lost their payment's outcome, by result")
                    .tag("result", result.tag()).register(meters));
        }
        completed = Counter.builder("reconciliation.settle.cycles").tag("outcome", "completed").register(meters);
        stopped = Counter.builder("reconciliation.settle.cycles").tag("outcome", "stopped").register(meters);
        latency = Timer.builder("reconciliation.settle.sync.latency").description("payment-service sync call")
                .register(meters);
    }

    @Override
    public void attempted(SettleAttempt attempt) {
        attempts.get(attempt.result()).increment();
        latency.record(attempt.took());
    }

    @Override
    public void republished(RepublishOutcome outcome) {
        republishes.get(outcome.result()).increment();
    }

    @Override
    public void cycleEnded(CycleReport report) {
        (report.stoppedEarly() ? stopped : completed).increment();
    }
}
