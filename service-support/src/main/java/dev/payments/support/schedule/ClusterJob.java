package dev.payments.support.schedule;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * One scheduled job of a service, run by at most one replica per cycle: a replica runs it only while it holds the
 * job's lock row, and the lock is kept at least one cycle ({@code lockAtLeastFor}) after the run started, so a replica
 * whose timer fires a moment later in the same cycle finds it taken and skips. {@code lockAtMostFor} frees the lock of a
 * replica that died mid-run. Every attempt is counted: {@code scheduled_job_runs_total{job, outcome}} with outcome
 * {@code ran} (this replica did the work), {@code failed} (it ran and threw) or {@code skipped} (another replica holds
 * the cycle); summed over replicas, {@code ran + failed} is the number of cycles run.
 */
public final class ClusterJob {

    private final String name;
    private final LockingTaskExecutor executor;
    private final Duration lockAtLeastFor;
    private final Duration lockAtMostFor;
    private final Clock clock;
    private final Counter ran;
    private final Counter failed;
    private final Counter skipped;

    ClusterJob(String name, LockingTaskExecutor executor, Duration lockAtLeastFor, Duration lockAtMostFor, Clock clock,
               MeterRegistry meters) {
        this.name = Objects.requireNonNull(name, "name");
        if (lockAtMostFor.compareTo(lockAtLeastFor) < 0) {
            throw new IllegalArgumentException("job " + name + ": lockAtMostFor " + lockAtMostFor
                    + " is shorter than one cycle, " + lockAtLeastFor);
        }
        this.executor = executor;
        this.lockAtLeastFor = lockAtLeastFor;
        this.lockAtMostFor = lockAtMostFor;
        this.clock = clock;
        // Every outcome exists at 0 from start-up, so increase() sees the first run (field report 000).
        this.ran = counter(meters, "ran");
        this.failed = counter(meters, "failed");
        this.skipped = counter(meters, "skipped");
    }

    private Counter counter(MeterRegistry meters, String outcome) {
        return Counter.builder("scheduled.job.runs").tag("job", name).tag("outcome", outcome)
                .description("Scheduled job attempts on this replica: ran, failed, or skipped (another replica had the cycle)")
                .register(meters);
    }

    public String name() {
        return name;
    }

    /**
     * Runs {@code work} here if no replica has run this job in the current cycle.
     *
     * @return whether it ran on this replica; an exception from {@code work} is counted and passed on
     */
    public boolean runOnce(Runnable work) {
        boolean[] executed = {false};
        try {
            executor.executeWithLock((LockingTaskExecutor.Task) () -> {
                executed[0] = true;
                work.run();
            }, new LockConfiguration(clock.instant(), name, lockAtMostFor, lockAtLeastFor));
        } catch (RuntimeException | Error e) {
            if (executed[0]) {
                failed.increment();
            }
            throw e;
        } catch (Throwable e) {
            if (executed[0]) {
                failed.increment();
            }
            throw new IllegalStateException("job " + name + " failed", e);
        }
        (executed[0] ? ran : skipped).increment();
        return executed[0];
    }
}
