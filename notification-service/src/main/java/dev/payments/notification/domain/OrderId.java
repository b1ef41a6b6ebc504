package dev.payments.notification.domain;

import java.util.Objects;
import java.util.UUID;

/** The order a notification is about. */
public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "OrderId");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
