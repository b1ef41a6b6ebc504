package dev.payments.notification.domain;

/** A delivery result for a notification that is already sent or given up. */
public class IllegalNotificationTransitionException extends RuntimeException {

    public IllegalNotificationTransitionException(NotificationId id, NotificationStatus from, NotificationStatus to) {
        super("Notification " + id + " cannot go from " + from + " to " + to);
    }
}
