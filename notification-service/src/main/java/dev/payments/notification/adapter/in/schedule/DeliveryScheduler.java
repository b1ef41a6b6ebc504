package dev.payments.notification.adapter.in.schedule;

import dev.payments.notification.application.DeliverNotifications;
import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.time.Duration;

/**
 * Delivers due notifications every poll interval on the scheduler's own thread, on one replica per interval
 * ({@link ClusterJob}). The rows are claimed one by one as well ({@code FOR UPDATE SKIP LOCKED} and a lease), so even a
 * run that outlives its lock never sends a notification another replica holds.
 */
public class DeliveryScheduler implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(DeliveryScheduler.class);

    private final DeliverNotifications deliverNotifications;
    private final Duration pollInterval;
    private final int batchSize;
    private final ClusterJob job;

    /**
     * @param pollInterval pause between looks for due notifications
     * @param batchSize    what {@link DeliverNotifications} claims per look; a full batch means more may be waiting
     * @param job          the lock that makes it one delivery run per poll interval across replicas
     */
    public DeliveryScheduler(DeliverNotifications deliverNotifications, Duration pollInterval, int batchSize,
                             ClusterJob job) {
        this.deliverNotifications = deliverNotifications;
        this.pollInterval = pollInterval;
        this.batchSize = batchSize;
        this.job = job;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::deliverDue, pollInterval);
    }

    private void deliverDue() {
        try {
            job.runOnce(() -> {
                // A full batch means more may be waiting: keep going rather than sleep a poll interval.
                while (deliverNotifications.deliverDue() == batchSize) {
                    log.debug("Delivered a full batch; looking for more");
                }
            });
        } catch (RuntimeException e) {
            log.warn("Delivering notifications failed; retrying in {}", pollInterval, e);
        }
    }
}
