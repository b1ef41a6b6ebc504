package dev.payments.reconciliation.domain.ledger;

/** Why a PG transaction (or one of our approvals) is not accounted for. */
public enum MismatchReason {

    /** The PG approved an order we have no payment for: money taken that our server has no trace of (000). */
    NO_PAYMENT_RECORD,
    /** A second PG approval for an order whose payment already explains another approval. */
    DUPLICATE_APPROVAL,
    /** The PG approved, and our payment is still UNKNOWN or REQUESTED past the settle deadline. */
    PAYMENT_UNSETTLED,
    /** The PG kept the money of a payment we recorded as FAILED or DECLINED: the customer was told it failed. */
    PAYMENT_NOT_APPROVED,
    /** Our payment is APPROVED but its order is not PAID. */
    ORDER_NOT_PAID,
    /** The PG approved a different amount than our payment's. */
    AMOUNT_MISMATCH,
    /** We recorded the payment CANCELED, but the PG still holds the money. */
    CANCELED_HERE_NOT_AT_PG,
    /** The PG returned the money, but our books still say it is kept (payment APPROVED or order PAID). */
    CANCELED_AT_PG_NOT_HERE,
    /**
     * What the PG gave back of an approved payment (its partial cancels) is not what our succeeded refunds of it add up
     * to: a refund we lost track of, or one the PG booked without us.
     */
    REFUND_MISMATCH,
    /** We recorded an approval the PG has no transaction for. */
    NO_PG_APPROVAL
}
