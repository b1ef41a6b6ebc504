package dev.payments.contracts;

/** A message that is not a valid envelope. Not retryable: it goes to the consumer's dead-letter topic. */
public class MalformedEventException extends RuntimeException {

    public MalformedEventException(String message, Throwable cause) {
        super(message, cause);
    }
}
