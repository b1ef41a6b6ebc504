package dev.payments.drills.observe;

import dev.payments.localstack.http.Http;
import dev.payments.drills.stack.Target;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches every replica on its own port, not through the load balancer: which payment-service replica holds the
 * outbox relay lease ({@code outbox_relay_active}), and how often each scheduled job ran, summed over replicas
 * ({@code scheduled_job_runs_total{outcome="ran"|"failed"}}; a restarted replica's counter starts at 0 again and is
 * added on, not subtracted).
 */
public final class ClusterWatch implements AutoCloseable {

    private static final Duration RELAY_EVERY = Duration.ofMillis(250);
    private static final Duration JOBS_EVERY = Duration.ofSeconds(2);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** Which replica reported the relay active at {@code t}; null holder when none did. */
    public record Holder(double t, String holder) {
    }

    private final Http http;
    private final Target target;
    private final Clock clock;
    private final Map<String, List<String>> jobsByService;
    private final List<Holder> holders = java.util.Collections.synchronizedList(new ArrayList<>());
    /** job -> replica -> [last value seen, runs summed so far] */
    private final Map<String, Map<String, double[]>> runs = new ConcurrentHashMap<>();
    private volatile boolean running = true;
    private final Thread relayThread;
    private final Thread jobsThread;

    /** @param jobsByService the jobs to count, by the service that runs them */
    public ClusterWatch(Http http, Target target, Clock clock, Map<String, List<String>> jobsByService) {
        this.http = http;
        this.target = target;
        this.clock = clock;
        this.jobsByService = Map.copyOf(jobsByService);
        this.relayThread = new Thread(this::watchRelay, "drill-relay-watch");
        this.jobsThread = new Thread(this::watchJobs, "drill-jobs-watch");
        relayThread.setDaemon(true);
        jobsThread.setDaemon(true);
        relayThread.start();
        jobsThread.start();
    }

    private void watchRelay() {
        while (running) {
            String holder = null;
            for (String replica : target.replicas("payment-service")) {
                Double active = scrape(replica).sum("outbox_relay_active");
                if (active != null && active >= 1) {
                    holder = replica;
                }
            }
            holders.add(new Holder(clock.seconds(), holder));
            LockSupport.parkNanos(RELAY_EVERY.toNanos());
        }
    }

    /** Empty when the replica does not answer, or its management port is not known (an external stack). */
    private Prometheus scrape(String replica) {
        try {
            return Prometheus.scrape(http, target.replicaManagementUrl(replica), TIMEOUT);
        } catch (UnsupportedOperationException e) {
            return Prometheus.parse(null);
        }
    }

    private void watchJobs() {
        while (running) {
            countJobs();
            LockSupport.parkNanos(JOBS_EVERY.toNanos());
        }
    }

    private synchronized void countJobs() {
        jobsByService.forEach((service, jobs) -> {
            for (String replica : target.replicas(service)) {
                Prometheus metrics = scrape(replica);
                for (String job : jobs) {
                    Double ran = metrics.sum("scheduled_job_runs_total", "job=\"" + job + "\"", "outcome=\"ran\"");
                    Double failed = metrics.sum("scheduled_job_runs_total", "job=\"" + job + "\"", "outcome=\"failed\"");
                    if (ran == null) {
                        continue;
                    }
                    double value = ran + (failed == null ? 0 : failed);
                    double[] seen = runs.computeIfAbsent(job, k -> new ConcurrentHashMap<>())
                            .computeIfAbsent(replica, k -> new double[]{Double.NaN, 0});
                    if (!Double.isNaN(seen[0])) {
                        seen[1] += value >= seen[0] ? value - seen[0] : value;
                    }
                    seen[0] = value;
                }
            }
        });
    }

    /** The replica holding the relay lease now (the latest sample), or null. */
    public String relayHolder() {
        synchronized (holders) {
            for (int i = holders.size() - 1; i >= 0; i--) {
                if (holders.get(i).holder() != null) {
                    return holders.get(i).holder();
                }
            }
        }
        return null;
    }

    /**
     * Seconds from {@code t} until a replica reported the relay active again; null if none did. A sample of the killed
     * replica itself counts only after one in which nobody held it: the first poll after a kill may still reach the
     * dying process (SIGKILL is not instant), which is not a hand-over.
     */
    public Double relayActiveAgainAfter(double t, String killed) {
        return firstHolderAfter(t, killed).map(h -> Math.round((h.t() - t) * 1000) / 1000.0).orElse(null);
    }

    /** The replica that took the relay over after {@code t} (see {@link #relayActiveAgainAfter}). */
    public String relayHolderAfter(double t, String killed) {
        return firstHolderAfter(t, killed).map(Holder::holder).orElse(null);
    }

    private java.util.Optional<Holder> firstHolderAfter(double t, String killed) {
        synchronized (holders) {
            boolean vacant = false;
            for (Holder h : holders) {
                if (h.t() <= t) {
                    continue;
                }
                if (h.holder() == null) {
                    vacant = true;
                } else if (vacant || !h.holder().equals(killed)) {
                    return java.util.Optional.of(h);
                }
            }
            return java.util.Optional.empty();
        }
    }

    /** Runs of each job since the watch started, summed over replicas (a fresh count is taken first). */
    public synchronized Map<String, Long> runs() {
        countJobs();
        Map<String, Long> totals = new LinkedHashMap<>();
        jobsByService.values().forEach(jobs -> jobs.forEach(job -> totals.put(job, Math.round(
                runs.getOrDefault(job, Map.of()).values().stream().mapToDouble(v -> v[1]).sum()))));
        return totals;
    }

    /** Runs of each job by replica, for the report. */
    public synchronized Map<String, Map<String, Long>> runsByReplica() {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        runs.forEach((job, byReplica) -> {
            Map<String, Long> counts = new java.util.TreeMap<>();
            byReplica.forEach((replica, v) -> counts.put(replica, Math.round(v[1])));
            out.put(job, counts);
        });
        return out;
    }

    @Override
    public void close() {
        running = false;
        relayThread.interrupt();
        jobsThread.interrupt();
    }
}
