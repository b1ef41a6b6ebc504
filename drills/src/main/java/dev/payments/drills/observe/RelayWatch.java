package dev.payments.drills.observe;

import dev.payments.localstack.http.Http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Scrapes one service instance's outbox relay metrics every 500 ms: whether it holds the lease, which relay publishes,
 * what it published, the slot, and the oldest unpublished row. What the relay alerts are computed from.
 */
public final class RelayWatch implements AutoCloseable {

    /** One scrape; null values are series the instance did not report (or the instance did not answer). */
    public record Sample(double t, boolean up, Double active, Double polling, Double publishedDebezium,
                         Double publishedPolling, Double slotHealthy, Double slotLost, Double oldestUnpublishedSeconds) {

        public double published() {
            return zero(publishedDebezium) + zero(publishedPolling);
        }

        private static double zero(Double value) {
            return value == null ? 0 : value;
        }
    }

    private final Http http;
    private final String managementUrl;
    private final Clock clock;
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "drill-relay-watch");
        t.setDaemon(true);
        return t;
    });

    /** @param managementUrl the instance's management base URL, where its actuator answers */
    public RelayWatch(Http http, String managementUrl, Clock clock) {
        this.http = http;
        this.managementUrl = managementUrl;
        this.clock = clock;
    }

    public RelayWatch start() {
        scheduler.scheduleWithFixedDelay(this::scrape, 0, 500, TimeUnit.MILLISECONDS);
        return this;
    }

    private void scrape() {
        double t = clock.seconds();
        Prometheus p = Prometheus.scrape(http, managementUrl, Duration.ofSeconds(2));
        Sample sample = new Sample(t, !p.isEmpty(), p.sum("outbox_relay_active"),
                p.sum("outbox_relay_mode", "relay=\"polling\""),
                p.sum("outbox_relay_published_total", "relay=\"debezium\""),
                p.sum("outbox_relay_published_total", "relay=\"polling\""),
                p.sum("outbox_slot_healthy"), p.sum("outbox_slot_lost_total"),
                p.sum("outbox_unpublished_oldest_age_seconds"));
        synchronized (samples) {
            samples.add(sample);
        }
    }

    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** The last sample this instance answered, or null. */
    public Sample last() {
        List<Sample> all = samples();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).up()) {
                return all.get(i);
            }
        }
        return null;
    }

    /** Seconds from {@code from} to the first answered sample after it that matches, or null if none did. */
    public Double secondsUntil(double from, Predicate<Sample> condition) {
        for (Sample sample : samples()) {
            if (sample.t() >= from && sample.up() && condition.test(sample)) {
                return sample.t() - from;
            }
        }
        return null;
    }

    /** The largest oldest-unpublished age this instance reported from {@code from} on, or null. */
    public Double maxOldestUnpublished(double from) {
        Double max = null;
        for (Sample sample : samples()) {
            if (sample.t() >= from && sample.up() && sample.oldestUnpublishedSeconds() != null
                    && !sample.oldestUnpublishedSeconds().isNaN()) {
                max = max == null ? sample.oldestUnpublishedSeconds() : Math.max(max, sample.oldestUnpublishedSeconds());
            }
        }
        return max;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
