package dev.payments.support.schedule;

import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;

import java.time.Clock;
import java.time.Duration;

/** Makes the service's {@link ClusterJob}s, all on the same lock table. */
public final class ClusterJobs {

    private final LockingTaskExecutor executor;
    private final Clock clock;
    private final MeterRegistry meters;

    public ClusterJobs(LockingTaskExecutor executor, Clock clock, MeterRegistry meters) {
        this.executor = executor;
        this.clock = clock;
        this.meters = meters;
    }

    /**
     * @param name   the lock's name, unique in the service (and the metric's {@code job} tag)
     * @param cycle  how often the job should run across all replicas: its schedule's interval
     * @param atMost how long a replica that died mid-run keeps the others out; longer than a run can take
     */
    public ClusterJob job(String name, Duration cycle, Duration atMost) {
        return new ClusterJob(name, executor, cycle, atMost, clock, meters);
    }
}
