package dev.payments.notification.application;

import dev.payments.notification.application.NotificationSender.Delivered;
import dev.payments.notification.application.NotificationSender.DeliveryResult;
import dev.payments.notification.application.NotificationSender.Rejected;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Sends the notifications that are due. Claims a batch in one short statement, sends each with no transaction open,
 * and records each result in its own short statement: a slow or failing channel holds no connection and never reaches
 * the consumer of payment events.
 */
public class DeliverNotifications {

    private static final Logger log = LoggerFactory.getLogger(DeliverNotifications.class);
    private static final int MAX_ERROR_LENGTH = 500;

    private final Notifications notifications;
    private final NotificationSender sender;
    private final Clock clock;
    private final Settings settings;

    public DeliverNotifications(Notifications notifications, NotificationSender sender, Clock clock,
                                Settings settings) {
        this.notifications = notifications;
        this.sender = sender;
        this.clock = clock;
        this.settings = settings;
    }

    /** @return how many notifications were attempted */
    public int deliverDue() {
        List<Notification> due = notifications.claimDue(clock.instant(), settings.claimLease(), settings.batchSize());
        for (Notification notification : due) {
            DeliveryResult result = attempt(notification);
            if (result instanceof Delivered) {
                notification.markSent(clock.instant());
            } else if (result instanceof Rejected rejected) {
                notification.markFailed(abbreviate(rejected.reason()), settings.retry(), clock.instant());
                log.warn("Notification {} ({} for order {}) failed on attempt {}: {}; next attempt {}",
                        notification.id(), notification.kind(), notification.orderId(), notification.attempts(),
                        rejected.reason(), notification.nextAttemptAt().map(Object::toString).orElse("none, gave up"));
            }
            notifications.update(notification);
        }
        return due.size();
    }

    private DeliveryResult attempt(Notification notification) {
        try {
            return sender.send(notification);
        } catch (RuntimeException e) {
            log.warn("Notification {} could not be handed to the channel", notification.id(), e);
            return new Rejected(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static String abbreviate(String reason) {
        String text = String.valueOf(reason);
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
    }

    /**
     * @param batchSize  notifications claimed per round
     * @param claimLease how long a claimed notification is reserved for this worker; longer than one send may take
     * @param retry      attempts and backoff for failed deliveries
     */
    public record Settings(int batchSize, Duration claimLease, RetryPolicy retry) {
    }
}
