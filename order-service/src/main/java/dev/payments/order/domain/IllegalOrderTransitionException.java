package dev.payments.order.domain;

/**
 * A payment outcome the order's state machine cannot take, e.g. an approval for a payment that is not the order's
 * current attempt. Never retried into success: on the consumer side it ends in the dead-letter topic for an operator.
 */
public class IllegalOrderTransitionException extends RuntimeException {

    private final OrderStatus from;
    private final OrderStatus to;

    public IllegalOrderTransitionException(OrderId id, OrderStatus from, OrderStatus to, PaymentId current,
                                           PaymentId offered) {
        super("Order " + id + " cannot go from " + from + " (payment " + current + ") to " + to + " for payment "
                + offered);
        this.from = from;
        this.to = to;
    }

    public OrderStatus from() {
        return from;
    }

    public OrderStatus to() {
        return to;
    }
}
