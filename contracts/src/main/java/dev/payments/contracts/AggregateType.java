package dev.payments.contracts;

/** Aggregate types as written in the outbox; the relay routes each to {@code <wireName>.events}. */
public enum AggregateType {
    ORDER("order"),
    PAYMENT("payment");

    private final String wireName;

    AggregateType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public String topic() {
        return wireName + Topics.SUFFIX;
    }
}
