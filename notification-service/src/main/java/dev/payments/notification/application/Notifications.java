package dev.payments.notification.application;

import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.OrderId;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Where notifications are kept. */
public interface Notifications {

    /**
     * Stores the notification in the caller's transaction unless one of the same kind already exists for the same
     * event or the same payment.
     *
     * @return whether it was stored
     */
    boolean insertIfAbsent(Notification notification);

    /**
     * Claims up to {@code limit} notifications due at {@code now} for {@code lease}: no other worker takes them until
     * the lease ends. One short statement; no transaction stays open while they are delivered.
     */
    List<Notification> claimDue(Instant now, Duration lease, int limit);

    /** Records delivery results and releases their claims, in the caller's transaction, in one round trip. */
    void updateAll(List<Notification> notifications);

    List<Notification> findByOrder(OrderId orderId);
}
