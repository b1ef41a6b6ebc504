package dev.payments.support.retention;

import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Runs {@link Retention} once per {@code retention.cycle} across the service's replicas (the {@code retention} lock
 * row): a second replica in the same cycle would only find the rows gone, but it would scan for them again.
 */
public class RetentionJob {

    private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

    private final Retention retention;
    private final ClusterJob job;

    public RetentionJob(Retention retention, ClusterJob job) {
        this.retention = retention;
        this.job = job;
    }

    @Scheduled(initialDelayString = "${retention.initial-delay:1m}", fixedDelayString = "${retention.cycle:10m}")
    public void run() {
        try {
            job.runOnce(retention::runCycle);
        } catch (RuntimeException e) {
            log.warn("Retention cycle failed; the next cycle tries again", e);
        }
    }
}
