package dev.payments.reconciliation.application.shared;

/** The PG could not be read (connection, timeout, 5xx, an unreadable answer). */
public class PgUnavailableException extends RuntimeException {

    public PgUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
