package dev.payments.payment.domain.renewal;

import java.util.Objects;
import java.util.UUID;

public record SubscriptionId(UUID value) {

    public SubscriptionId {
        Objects.requireNonNull(value, "subscription id");
    }

    public static SubscriptionId newId() {
        return new SubscriptionId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
