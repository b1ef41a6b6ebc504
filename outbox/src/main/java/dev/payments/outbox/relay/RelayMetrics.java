package dev.payments.outbox.relay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the relay exports, the same whichever relay publishes. Everything is registered at start-up, so an alert on an
 * increase sees the first one (a series that first appears with its first increase is invisible to
 * {@code increase()}). Values that only the active replica knows read NaN on a standby rather than a stale number.
 */
final class RelayMetrics {

    /** Which relay this replica runs now, if any. */
    enum Publisher { DEBEZIUM, POLLING }

    private final Timer lag;
    private final Map<Publisher, Counter> published = new EnumMap<>(Publisher.class);
    private final Counter slotLost;
    private final Map<String, Counter> fallbacks = new ConcurrentHashMap<>();
    private final AtomicReference<Publisher> publisher = new AtomicReference<>();
    private final AtomicReference<SlotStatus> slot = new AtomicReference<>();
    private final AtomicReference<Backlog> backlog = new AtomicReference<>();
    private final MeterRegistry meters;
    private final String slotName;

    /** Rows not yet known to be in Kafka and when the oldest was written, as the active relay last measured. */
    record Backlog(long rows, Instant oldest, Instant measuredAt) {
        double oldestAgeSeconds() {
            return oldest == null ? 0 : Math.max(0, Duration.between(oldest, measuredAt).toMillis() / 1000.0);
        }
    }

    RelayMetrics(MeterRegistry meters, String slotName) {
        this.meters = meters;
        this.slotName = slotName;
        this.lag = Timer.builder("outbox.relay.lag")
                .description("Outbox row written -> acknowledged by Kafka, whichever relay published it")
                .publishPercentiles(0.5, 0.99)
                .register(meters);
        for (Publisher each : Publisher.values()) {
            published.put(each, Counter.builder("outbox.relay.published").description("Events published to Kafka")
                    .tag("relay", tag(each)).register(meters));
            Gauge.builder("outbox.relay.mode", publisher, p -> p.get() == each ? 1 : 0)
                    .description("1 for the relay this replica publishes with now (debezium or polling)")
                    .tag("relay", tag(each)).register(meters);
        }
        this.slotLost = Counter.builder("outbox.slot.lost")
                .description("Times the active relay found its replication slot missing or invalidated while it depended on it")
                .tag("slot", slotName).register(meters);
        for (String reason : new String[] {"slot_lost", "engine_failing"}) {
            fallback(reason);
        }
        Gauge.builder("outbox.slot.healthy", slot, s -> s.get() == null ? Double.NaN : s.get().healthy() ? 1 : 0)
                .description("1 when the slot exists and keeps its WAL, 0 when missing or lost (active relay only)")
                .tag("slot", slotName).register(meters);
        Gauge.builder("outbox.slot.retained.wal", slot,
                        s -> s.get() == null || s.get().retainedWalBytes() < 0 ? Double.NaN : s.get().retainedWalBytes())
                .description("WAL bytes the replication slot retains (active relay only)")
                .baseUnit("bytes").tag("slot", slotName).register(meters);
        Gauge.builder("outbox.unpublished.rows", backlog, b -> b.get() == null ? Double.NaN : b.get().rows())
                .description("Outbox rows not yet known to be in Kafka (active relay only)").register(meters);
        Gauge.builder("outbox.unpublished.oldest.age", backlog,
                        b -> b.get() == null ? Double.NaN : b.get().oldestAgeSeconds())
                .description("Age of the oldest outbox row not yet known to be in Kafka, 0 when none (active relay only)")
                .baseUnit("seconds").register(meters);
    }

    static String tag(Publisher publisher) {
        return publisher.name().toLowerCase();
    }

    void published(Publisher by, int events) {
        published.get(by).increment(events);
    }

    void lag(Duration writtenToAcknowledged) {
        lag.record(writtenToAcknowledged);
    }

    void slotLost() {
        slotLost.increment();
    }

    void fellBack(String reason) {
        fallback(reason).increment();
    }

    private Counter fallback(String reason) {
        return fallbacks.computeIfAbsent(reason, r -> Counter.builder("outbox.relay.fallbacks")
                .description("Times the polling relay took over from Debezium, by reason")
                .tag("slot", slotName).tag("reason", r).register(meters));
    }

    void publishing(Publisher by) {
        publisher.set(by);
    }

    Publisher publisher() {
        return publisher.get();
    }

    void slot(SlotStatus status) {
        slot.set(status);
    }

    SlotStatus slot() {
        return slot.get();
    }

    void backlog(Backlog measured) {
        backlog.set(measured);
    }

    Backlog backlog() {
        return backlog.get();
    }

    /** This replica stands by: it knows nothing current about the slot or the backlog. */
    void standingBy() {
        publisher.set(null);
        slot.set(null);
        backlog.set(null);
    }
}
