package dev.payments.reconciliation.domain.incidents;

/** Why an incident was opened. */
public enum IncidentReason {

    /** The PG holds the customer's money and the compensating cancel failed every time (field report 000). */
    COMPENSATION_FAILED,
    /** The payment has had no final outcome for longer than the long deadline. */
    UNRESOLVED,
    /** The order has waited in PAYMENT_PENDING for longer than the long deadline although its payment is settled. */
    ORDER_STUCK,
    /** A PG transaction and our books have disagreed for longer than the long deadline. */
    LEDGER_MISMATCH,
    /**
     * The PG answered about another amount, order or payment key than the payment's, or contradicts what we recorded
     * (payment-service's sync said MISMATCH): only a human can decide whether to keep or return that money.
     */
    PG_MISMATCH
}
