package dev.payments.pgsim.ledger;

/** The {@code startingAfter} cursor names no transaction on the books (e.g. after a ledger reset). */
public final class UnknownCursorException extends RuntimeException {

    public UnknownCursorException(String cursor) {
        super("startingAfter names no transaction: " + cursor);
    }
}
