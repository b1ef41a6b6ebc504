package dev.payments.reconciliation.domain.shared;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** Identity of an order, as order-service assigned it; also the Kafka key of every event about it. */
public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "order id");
    }

    /** The order id in {@code text}, or empty if it is not one of ours (the PG may list merchants' other ids). */
    public static Optional<OrderId> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new OrderId(UUID.fromString(text)));
        } catch (IllegalArgumentException notOurs) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
