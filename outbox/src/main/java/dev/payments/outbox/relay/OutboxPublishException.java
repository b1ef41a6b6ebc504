package dev.payments.outbox.relay;

/** Kafka refused or timed out on an outbox event; the batch will be sent again. */
public class OutboxPublishException extends RuntimeException {

    public OutboxPublishException(String message, Throwable cause) {
        super(message, cause);
    }
}
