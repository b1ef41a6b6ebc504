package dev.payments.drills.observe;

import dev.payments.localstack.http.Http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scrapes payment-service's management port every second (as Prometheus would, but 15x finer) and reads consumer
 * lag. The breaker is also watched every {@value #BREAKER_POLL_MILLIS} ms from its small metrics endpoint, for
 * transition times.
 */
public final class MetricsSampler implements AutoCloseable {

    static final long BREAKER_POLL_MILLIS = 50;
    public static final List<String> OUTCOMES = List.of("approved", "declined", "pg_failed", "pg_timeout", "unknown",
            "pg_unavailable", "db_failed", "rate_limited", "rejected", "replayed");

    public record Transition(double t, String from, String to) {
    }

    private final Http http;
    private final String paymentManagementUrl;
    private final Clock clock;
    private final ConsumerLag lag;
    private final List<Sample> samples = new ArrayList<>();
    private final List<Transition> transitions = new ArrayList<>();
    private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(3, r -> {
        Thread t = new Thread(r, "drill-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile String breaker;
    private volatile Map<String, Long> lastLag;

    public MetricsSampler(Http http, String paymentManagementUrl, Clock clock, ConsumerLag lag) {
        this.http = http;
        this.paymentManagementUrl = paymentManagementUrl;
        this.clock = clock;
        this.lag = lag;
    }

    public void start() {
        scheduler.scheduleAtFixedRate(this::scrape, 0, 1, TimeUnit.SECONDS);
        scheduler.scheduleWithFixedDelay(this::watchBreaker, 0, BREAKER_POLL_MILLIS, TimeUnit.MILLISECONDS);
        if (lag != null) {
            scheduler.scheduleWithFixedDelay(() -> lastLag = lag.read(), 0, 1, TimeUnit.SECONDS);
        }
    }

    private void scrape() {
        double t = clock.seconds();
        Prometheus p = Prometheus.scrape(http, paymentManagementUrl, Duration.ofSeconds(2));
        Map<String, Double> approvals = new LinkedHashMap<>();
        if (!p.isEmpty()) {
            for (String outcome : OUTCOMES) {
                Double v = p.sum("payment_approval_total", "outcome=\"" + outcome + "\"");
                if (v != null) {
                    approvals.put(outcome, v);
                }
            }
        }
        String state = null;
        for (String s : List.of("closed", "open", "half_open", "forced_open")) {
            Double v = p.sum("resilience4j_circuitbreaker_state", "name=\"pg-approve\"", "state=\"" + s + "\"");
            if (v != null && v > 0.5) {
                state = s.toUpperCase();
            }
        }
        Sample sample = new Sample(t, !p.isEmpty(), p.sum("hikaricp_connections_pending"),
                p.sum("hikaricp_connections_active"), p.sum("hikaricp_connections_timeout_total"),
                p.sum("resilience4j_bulkhead_available_concurrent_calls", "name=\"pg-approve\""), state,
                // One quantile: the name alone also matched the p50 series, and the sample was their sum.
                p.sum("outbox_relay_lag_seconds", "quantile=\"0.99\""), p.sum("process_cpu_usage"), p.sum("jvm_threads_live_threads"),
                approvals, lastLag);
        synchronized (samples) {
            samples.add(sample);
        }
    }

    private void watchBreaker() {
        String state = breakerState(http, paymentManagementUrl, Duration.ofMillis(500));
        if (state == null) {
            return;   // service down: no transition can be observed
        }
        String previous = breaker;
        if (!state.equals(previous)) {
            breaker = state;
            synchronized (transitions) {
                transitions.add(new Transition(clock.seconds(), previous, state));
            }
        }
    }

    /**
     * The pg-approve breaker from its small metrics endpoint (cheaper than a whole scrape, so it can be polled every
     * {@value #BREAKER_POLL_MILLIS} ms): CLOSED, OPEN, HALF_OPEN, or null if the service does not answer.
     */
    public static String breakerState(Http http, String managementUrl, Duration timeout) {
        String state = "CLOSED";
        for (String s : List.of("open", "half_open")) {
            Http.Response r = http.get(managementUrl
                    + "/actuator/metrics/resilience4j.circuitbreaker.state?tag=name:pg-approve&tag=state:" + s, timeout);
            if (!r.ok()) {
                return null;
            }
            if (r.json().path("measurements").path(0).path("value").asDouble(0) > 0.5) {
                state = s.toUpperCase();
            }
        }
        return state;
    }

    public List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    public List<Transition> transitions() {
        synchronized (transitions) {
            return List.copyOf(transitions);
        }
    }

    public Map<String, Long> lastLag() {
        return lastLag;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
