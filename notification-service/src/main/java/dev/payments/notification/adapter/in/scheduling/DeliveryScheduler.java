package dev.payments.notification.adapter.in.scheduling;

import dev.payments.notification.application.DeliverNotifications;
import dev.payments.notification.config.DeliveryProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/** Delivers due notifications every {@code notification.delivery.poll-interval} on the scheduler's own thread. */
@Component
@ConditionalOnProperty(prefix = "notification.delivery", name = "enabled", matchIfMissing = true)
class DeliveryScheduler implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(DeliveryScheduler.class);

    private final DeliverNotifications deliverNotifications;
    private final DeliveryProperties properties;

    DeliveryScheduler(DeliverNotifications deliverNotifications, DeliveryProperties properties) {
        this.deliverNotifications = deliverNotifications;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::deliverDue, properties.pollInterval());
    }

    private void deliverDue() {
        try {
            // A full batch means more may be waiting: keep going rather than sleep a poll interval.
            while (deliverNotifications.deliverDue() == properties.batchSize()) {
                log.debug("Delivered a full batch; looking for more");
            }
        } catch (RuntimeException e) {
            log.warn("Delivering notifications failed; retrying in {}", properties.pollInterval(), e);
        }
    }
}
