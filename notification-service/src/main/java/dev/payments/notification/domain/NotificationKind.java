package dev.payments.notification.domain;

/** What the customer is told. */
public enum NotificationKind {
    /** Your payment went through: the money moved. */
    PAYMENT_COMPLETED,
    /** The receipt of a completed payment. */
    RECEIPT,
    /** Your payment did not go through and no money moved; you may try again. */
    PAYMENT_FAILED,
    /** Money that moved was returned to you. */
    PAYMENT_CANCELED,
    /** Part (or the rest) of a payment was given back to you: one per refund. */
    PAYMENT_REFUNDED
}
