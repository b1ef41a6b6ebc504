package dev.payments.localstack;

/** A child process could not be started or did not become healthy. */
public class ChildFailedException extends RuntimeException {

    public ChildFailedException(String message) {
        super(message);
    }
}
