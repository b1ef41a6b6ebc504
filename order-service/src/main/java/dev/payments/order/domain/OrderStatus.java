package dev.payments.order.domain;

/** Where the order's money stands. */
public enum OrderStatus {
    /** Placed; no payment attempt yet, no money moved. */
    CREATED,
    /** A payment attempt is in flight: money may have moved (including while the PG's answer is unknown). */
    PAYMENT_PENDING,
    /** An approved payment holds the customer's money for this order. */
    PAID,
    /** The last payment attempt ended without money kept; a new attempt may start. */
    FAILED,
    /** Paid, and part of the price was given back by refunds; the rest is still held and may be refunded. */
    PARTIALLY_REFUNDED,
    /** Paid, and refunds gave the whole price back; the payment stays approved with nothing left to refund. Final. */
    REFUNDED,
    /** Paid, and a cancel of the whole payment returned whatever was still held (after any partial refunds). Final. */
    CANCELED;

    /** Whether an approved payment was applied to the order (whatever was given back since). */
    public boolean wasPaid() {
        return this == PAID || this == PARTIALLY_REFUNDED || this == REFUNDED || this == CANCELED;
    }
}
