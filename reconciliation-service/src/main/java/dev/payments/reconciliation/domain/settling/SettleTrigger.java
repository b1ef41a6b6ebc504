package dev.payments.reconciliation.domain.settling;

/** Why the settler picked a payment. */
public enum SettleTrigger {

    /** The PG's answer was lost ({@code PaymentUnknown}): money may have moved. */
    PAYMENT_UNKNOWN,
    /**
     * A confirm went out longer ago than the settle deadline and no outcome was ever recorded: the request thread
     * died or TX-2 failed (DESIGN.md, request path step 8).
     */
    STALE_REQUESTED,
    /** The order has waited in PAYMENT_PENDING longer than the settle deadline (field report 000's sweep). */
    ORDER_STUCK,
    /**
     * payment-service owes the PG a cancel ({@code PaymentCancelOwed}): the PG holds money we must give back. Picked
     * at once, and again after a settled approval turned into a refund or a late approval.
     */
    CANCEL_OWED
}
