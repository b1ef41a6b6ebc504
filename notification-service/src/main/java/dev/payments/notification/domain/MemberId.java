package dev.payments.notification.domain;

import java.util.Objects;

/** The customer to notify. */
public record MemberId(String value) {

    public MemberId {
        Objects.requireNonNull(value, "member id");
    }

    @Override
    public String toString() {
        return value;
    }
}
