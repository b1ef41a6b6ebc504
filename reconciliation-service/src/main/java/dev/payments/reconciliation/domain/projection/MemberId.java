package dev.payments.reconciliation.domain.projection;

import java.util.Objects;

/** The member (customer) who placed the order and pays for it. */
public record MemberId(String value) {

    public MemberId {
        Objects.requireNonNull(value, "member id");
        if (value.isBlank()) {
            throw new IllegalArgumentException("member id is blank");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
