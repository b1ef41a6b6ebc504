package dev.payments.order.domain;

import java.util.Objects;
import java.util.UUID;

/** The id payment-service gave one payment attempt for an order. */
public record PaymentId(UUID value) {

    public PaymentId {
        Objects.requireNonNull(value, "payment id");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
