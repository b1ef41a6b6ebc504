package dev.payments.payment.domain;

/**
 * What the customer was told about a payment. Reconciliation decides repairs from it: a customer told PENDING whose
 * payment the PG approved keeps the purchase; a customer told FAILED must not be charged, so the charge is cancelled.
 */
public enum CustomerNotice {
    /** No answer left the server (the request thread died, or the final write failed). */
    NONE,
    APPROVED,
    DECLINED,
    /** "We are confirming your payment with the PG." */
    PENDING,
    /** "The payment failed; nothing was charged." Only ever said when that is known. */
    FAILED
}
