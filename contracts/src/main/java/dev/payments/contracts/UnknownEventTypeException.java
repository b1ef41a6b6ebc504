package dev.payments.contracts;

import java.util.UUID;

/** A message whose type this build does not know. Not retryable: it goes to the consumer's dead-letter topic. */
public class UnknownEventTypeException extends RuntimeException {

    public UnknownEventTypeException(String type, UUID eventId) {
        super("Unknown event type '" + type + "' (event " + eventId + ")");
    }
}
