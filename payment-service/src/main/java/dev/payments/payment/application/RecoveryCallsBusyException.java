package dev.payments.payment.application;

import java.time.Duration;

/**
 * Every slot for recovery calls to the PG (status queries, cancels) is taken: the PG was not called and nothing
 * happened. A hung PG fills these slots and no more, so it cannot take every web thread.
 */
public class RecoveryCallsBusyException extends RuntimeException {

    private final Duration retryAfter;

    public RecoveryCallsBusyException(String operation, Duration retryAfter) {
        super("Every recovery slot for the PG is busy; the " + operation + " was not sent", null, false, false);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
