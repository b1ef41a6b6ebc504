package dev.payments.notification.application;

import dev.payments.notification.application.NotificationSender.Delivered;
import dev.payments.notification.application.NotificationSender.DeliveryResult;
import dev.payments.notification.application.NotificationSender.Rejected;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends the notifications that are due. Claims a batch in one short statement, sends each with no transaction open,
 * and records the results in one short transaction for what was sent within {@link Settings#recordWithin()}: a slow or
 * failing channel holds no connection and never reaches the consumer of payment events, a fast one costs one commit
 * per round rather than one per notification, and a crash re-sends (after the claim lease) only what was
 * sent in the last {@code recordWithin} or by the one send in progress.
 */
public class DeliverNotifications {

    private static final Logger log = LoggerFactory.getLogger(DeliverNotifications.class);
    private static final int MAX_ERROR_LENGTH = 500;

    private final Notifications notifications;
    private final NotificationSender sender;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final Settings settings;

    public DeliverNotifications(Notifications notifications, NotificationSender sender, TransactionTemplate transaction,
                                Clock clock, Settings settings) {
        this.notifications = notifications;
        this.sender = sender;
        this.transaction = transaction;
        this.clock = clock;
        this.settings = settings;
    }

    /** @return how many notifications were attempted */
    public int deliverDue() {
        List<Notification> due = notifications.claimDue(clock.instant(), settings.claimLease(), settings.batchSize());
        List<Notification> unrecorded = new ArrayList<>();
        Instant firstUnrecorded = null;
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
            unrecorded.add(notification);
            Instant now = clock.instant();
            if (firstUnrecorded == null) {
                firstUnrecorded = now;
            }
            if (!now.isBefore(firstUnrecorded.plus(settings.recordWithin()))) {
                record(unrecorded);
                firstUnrecorded = null;
            }
        }
        record(unrecorded);
        return due.size();
    }

    private void record(List<Notification> results) {
        if (!results.isEmpty()) {
            transaction.executeWithoutResult(status -> notifications.updateAll(List.copyOf(results)));
            results.clear();
        }
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
     * @param batchSize     notifications claimed per round
     * @param claimLease    how long a claimed notification is reserved for this worker; longer than one send may take
     * @param retry         attempts and backoff for failed deliveries
     * @param recordWithin  results are written at the latest this long after the first of them was known
     */
    public record Settings(int batchSize, Duration claimLease, RetryPolicy retry, Duration recordWithin) {
    }
}
