package dev.payments.payment.domain;

import java.util.Objects;
import java.util.UUID;

public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "order id");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
