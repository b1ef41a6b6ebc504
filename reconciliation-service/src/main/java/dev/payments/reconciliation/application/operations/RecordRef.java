package dev.payments.reconciliation.application.operations;

import java.util.Objects;

/** Where one Kafka record is: topic, partition, offset. */
public record RecordRef(String topic, int partition, long offset) {

    public RecordRef {
        Objects.requireNonNull(topic, "topic");
    }

    @Override
    public String toString() {
        return topic + "-" + partition + "@" + offset;
    }
}
