package dev.payments.order.domain;

/** An order that cannot exist as asked (amount, currency, name or member out of range). Nothing is stored. */
public class InvalidOrderException extends RuntimeException {

    public InvalidOrderException(String message) {
        super(message);
    }
}
