package dev.payments.reconciliation.application.operations;

/** The group or topic is not one this system's consumers use (a typo would otherwise create a new group). */
public class UnknownConsumerGroupException extends RuntimeException {

    public UnknownConsumerGroupException(String message) {
        super(message);
    }
}
