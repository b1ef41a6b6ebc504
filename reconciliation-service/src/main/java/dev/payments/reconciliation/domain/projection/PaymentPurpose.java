package dev.payments.reconciliation.domain.projection;

/** What a payment pays for, as its events say; the ledger audit matches each kind to its own category. */
public enum PaymentPurpose {
    /** One of order-service's orders: its approval is matched to the order being PAID. */
    ORDER,
    /** A subscription period charged by payment-service's renewal run: no order exists for it. */
    RENEWAL
}
