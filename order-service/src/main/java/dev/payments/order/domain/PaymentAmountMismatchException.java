package dev.payments.order.domain;

import dev.payments.contracts.Money;

/**
 * A payment event whose amount or currency contradicts the order's price: an approval of another amount, or a refund
 * of a payment of another amount or of more than was paid. Money moved that an operator must settle.
 */
public class PaymentAmountMismatchException extends RuntimeException {

    public PaymentAmountMismatchException(OrderId id, Money expected, Money paid, PaymentId payment) {
        super("Order " + id + " costs " + expected + " but payment " + payment + " approved " + paid);
    }

    /** A refund whose payment or total does not fit the order's price. */
    static PaymentAmountMismatchException ofRefund(OrderId id, Money price, Money paymentAmount, Money refundedTotal,
                                                   PaymentId payment) {
        return new PaymentAmountMismatchException("Order " + id + " costs " + price + " but a refund of payment "
                + payment + " (of " + paymentAmount + ") brings its refunds to " + refundedTotal);
    }

    private PaymentAmountMismatchException(String message) {
        super(message);
    }
}
