package dev.payments.payment.domain;

/** A transition a refund's state machine does not allow, e.g. failing a refund the PG confirmed. */
public class IllegalRefundTransitionException extends RuntimeException {

    public IllegalRefundTransitionException(RefundId id, RefundStatus from, RefundStatus to) {
        super("Refund " + id + " cannot go from " + from + " to " + to);
    }
}
