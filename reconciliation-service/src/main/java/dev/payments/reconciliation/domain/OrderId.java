package dev.payments.reconciliation.domain;

import java.util.Objects;
import java.util.UUID;

/** Identity of an order, as order-service assigned it; also the Kafka key of every event about it. */
public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "order id");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
