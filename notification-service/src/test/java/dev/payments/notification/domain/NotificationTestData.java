package dev.payments.notification.domain;

import dev.payments.contracts.Money;

import java.time.Instant;
import java.util.UUID;

/** Notifications in a given delivery state, reached through the aggregate's own verbs. */
public final class NotificationTestData {

    public static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");

    private NotificationKind kind = NotificationKind.PAYMENT_COMPLETED;

    private NotificationTestData() {
    }

    public static NotificationTestData aNotification() {
        return new NotificationTestData();
    }

    public NotificationTestData of(NotificationKind notificationKind) {
        this.kind = notificationKind;
        return this;
    }

    public Notification pending() {
        return Notification.pending(NotificationId.newId(), UUID.randomUUID(), kind, new OrderId(UUID.randomUUID()),
                new PaymentId(UUID.randomUUID()), new MemberId("member-1"), new Money(15_000, "KRW"), T0);
    }

    public Notification sent() {
        Notification notification = pending();
        notification.markSent(T0.plusSeconds(1));
        return notification;
    }

    /** Failed once, with attempts left under {@code retry}. */
    public Notification failed(RetryPolicy retry) {
        Notification notification = pending();
        notification.markFailed("gateway timeout", retry, T0.plusSeconds(1));
        return notification;
    }

    /** Failed on every attempt {@code retry} allows. */
    public Notification givenUp(RetryPolicy retry) {
        Notification notification = pending();
        for (int i = 0; i < retry.maxAttempts(); i++) {
            notification.markFailed("gateway timeout", retry, T0.plusSeconds(i + 1));
        }
        return notification;
    }
}
