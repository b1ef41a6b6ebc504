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
    /** The order was paid and the money was returned (refund or compensation). Final. */
    CANCELED
}
