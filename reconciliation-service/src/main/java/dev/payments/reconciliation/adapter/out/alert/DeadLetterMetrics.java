package dev.payments.reconciliation.adapter.out.alert;

import dev.payments.reconciliation.application.operations.DeadLetterObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code reconciliation_dead_letters_waiting{group}}: the group's dead letters nobody has re-driven, as last counted
 * (every listing and a periodic count); {@code reconciliation_dead_letters_redriven_total{group}}. Every configured
 * group's series exist at 0 from start-up (seed 000: a series born at 1 has no increase).
 */
public class DeadLetterMetrics implements DeadLetterObserver {

    private final MeterRegistry meters;
    private final Map<String, AtomicLong> waiting = new ConcurrentHashMap<>();

    public DeadLetterMetrics(MeterRegistry meters, Collection<String> groups) {
        this.meters = meters;
        groups.forEach(group -> {
            waitingGauge(group);
            redrivenCounter(group);
        });
    }

    @Override
    public void waiting(String group, long letters) {
        waitingGauge(group).set(letters);
    }

    @Override
    public void redriven(String group, long letters) {
        redrivenCounter(group).increment(letters);
    }

    private AtomicLong waitingGauge(String group) {
        return waiting.computeIfAbsent(group, g -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder("reconciliation.dead.letters.waiting", value, AtomicLong::get)
                    .description("Dead letters of the consumer group nobody has re-driven, as last counted")
                    .tag("group", g).register(meters);
            return value;
        });
    }

    private Counter redrivenCounter(String group) {
        return Counter.builder("reconciliation.dead.letters.redriven")
                .description("Dead letters handed back to their consumer group by an operator")
                .tag("group", group).register(meters);
    }
}
