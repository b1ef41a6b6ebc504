package dev.payments.payment.domain;

/** A move an aggregate's transition table does not allow, e.g. approving a cancelled payment or failing a refund the PG confirmed. */
public class IllegalTransitionException extends RuntimeException {

    IllegalTransitionException(String aggregate, Object id, Enum<?> from, Enum<?> to) {
        super(aggregate + " " + id + " cannot go from " + from + " to " + to);
    }
}
