package dev.payments.contracts;

/**
 * What a payment pays for. Every payment event carries it, so a consumer decides by rule which payments are its
 * business: order-service follows only {@link #ORDER} payments, the ledger audit matches a {@link #RENEWAL} approval
 * to its own category (docs/decisions/renewal-payments-downstream.md).
 */
public enum PaymentPurpose {
    /** A member's confirm of one of order-service's orders; the event's order id names that order. */
    ORDER,
    /**
     * One attempt to charge a subscription period (payment-service's renewal run); the event's order id is the
     * attempt's id at the PG, and no order-service order exists for it.
     */
    RENEWAL;

    /** Events written before the purpose was on the wire carry none: they were all order payments. */
    static PaymentPurpose orOrder(PaymentPurpose purpose) {
        return purpose == null ? ORDER : purpose;
    }
}
