package dev.payments.notification.domain;

import java.util.Objects;
import java.util.UUID;

/** The payment a notification is about. */
public record PaymentId(UUID value) {

    public PaymentId {
        Objects.requireNonNull(value, "PaymentId");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
