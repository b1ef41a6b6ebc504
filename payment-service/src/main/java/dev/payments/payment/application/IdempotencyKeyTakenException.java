package dev.payments.payment.application;

/** A concurrent request with the same idempotency key claimed it first. */
public class IdempotencyKeyTakenException extends RuntimeException {

    public IdempotencyKeyTakenException(String key, Throwable cause) {
        super("Idempotency key already claimed: " + key, cause);
    }
}
