package dev.payments.order.domain;

import java.util.Objects;

/** The customer who placed the order. */
public record MemberId(String value) {

    public static final int MAX_LENGTH = 64;

    public MemberId {
        Objects.requireNonNull(value, "member id");
        if (value.isBlank() || value.length() > MAX_LENGTH) {
            throw new InvalidOrderException("memberId must be 1-" + MAX_LENGTH + " characters");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
