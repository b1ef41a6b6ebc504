package dev.payments.payment.domain;

import java.util.Objects;
import java.util.UUID;

/** A refund's id; it is also the PG-side Idempotency-Key of its cancel and named in the cancel's reason. */
public record RefundId(UUID value) {

    public RefundId {
        Objects.requireNonNull(value, "refund id");
    }

    public static RefundId newId() {
        return new RefundId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
