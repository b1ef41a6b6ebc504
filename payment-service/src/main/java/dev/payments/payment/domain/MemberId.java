package dev.payments.payment.domain;

public record MemberId(String value) {

    public MemberId {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("member id must not be blank");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
