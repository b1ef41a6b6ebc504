package dev.payments.reconciliation.application.operations;

/** Hands a record back to one consumer group (port): copies it to the group's re-drive topic, waiting for Kafka. */
public interface RedriveChannel {

    /**
     * Copies the record at {@code from} (its key, value and the headers its consumer reads, without the dead-letter
     * headers) to {@code Topics.redrive(sourceTopic, group)} and returns once Kafka has it.
     *
     * @param operator who re-drives it, carried as a header for the consumer's logs
     * @throws IllegalStateException if the record is no longer there (past retention) or Kafka refused it
     */
    void copy(RecordRef from, String sourceTopic, String group, String operator);
}
