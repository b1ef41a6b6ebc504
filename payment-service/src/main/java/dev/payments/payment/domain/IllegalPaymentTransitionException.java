package dev.payments.payment.domain;

/** A transition the payment's state machine does not allow, e.g. approving a cancelled payment. */
public class IllegalPaymentTransitionException extends RuntimeException {

    private final PaymentStatus from;
    private final PaymentStatus to;

    public IllegalPaymentTransitionException(PaymentId id, PaymentStatus from, PaymentStatus to) {
        super("Payment " + id + " cannot go from " + from + " to " + to);
        this.from = from;
        this.to = to;
    }

    public PaymentStatus from() {
        return from;
    }

    public PaymentStatus to() {
        return to;
    }
}
