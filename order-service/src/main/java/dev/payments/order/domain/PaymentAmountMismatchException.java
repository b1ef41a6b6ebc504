package dev.payments.order.domain;

/** An approved payment whose amount or currency differs from the order's: money moved that an operator must settle. */
public class PaymentAmountMismatchException extends RuntimeException {

    public PaymentAmountMismatchException(OrderId id, Money expected, Money paid, PaymentId payment) {
        super("Order " + id + " costs " + expected + " but payment " + payment + " approved " + paid);
    }
}
