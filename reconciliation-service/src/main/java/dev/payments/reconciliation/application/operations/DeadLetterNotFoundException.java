package dev.payments.reconciliation.application.operations;

/** The group has no dead letter with that event id (or none of that order). */
public class DeadLetterNotFoundException extends RuntimeException {

    public DeadLetterNotFoundException(String message) {
        super(message);
    }
}
