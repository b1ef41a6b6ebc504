package dev.payments.payment.domain;

/** What settling a payment with the PG's answer did (the {@code action} of payment-service's sync). */
public enum SyncAction {
    /** Nothing to change: the payment already says what the PG says. */
    NONE,
    /** Approved: the PG has the money and the customer keeps the purchase. */
    APPROVED,
    /** Failed: the PG kept nothing. */
    FAILED,
    /** Cancelled: money that moved was given back at the PG. */
    CANCELED,
    /** The PG holds money we must give back: cancel it at the PG, then record the cancel. Nothing written yet. */
    CANCEL_AT_PG,
    /** The PG has not decided (or not seen it yet): ask again later. */
    RETRY_LATER,
    /**
     * The PG's answer is not about our payment (another amount, order or key) or contradicts what we recorded:
     * nothing changed; a human decides (reconciliation opens an incident).
     */
    MISMATCH
}
