package dev.payments.reconciliation.domain.shared;

import java.util.Objects;
import java.util.UUID;

/** Identity of a payment attempt, as payment-service assigned it. */
public record PaymentId(UUID value) {

    public PaymentId {
        Objects.requireNonNull(value, "payment id");
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
