package dev.payments.notification.domain;

import java.util.Objects;
import java.util.UUID;

/** One notification to one customer. */
public record NotificationId(UUID value) {

    public NotificationId {
        Objects.requireNonNull(value, "NotificationId");
    }

    public static NotificationId newId() {
        return new NotificationId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
