package dev.payments.reconciliation.domain.projection;

/**
 * An order's state as order-service published it, with its rank in the lifecycle (see {@link Ranked}). PAID goes on to
 * PARTIALLY_REFUNDED (refunds, possibly several), then REFUNDED (refunds add up to the price), or to CANCELED (a cancel
 * of the whole payment), from PAID or PARTIALLY_REFUNDED: REFUNDED and CANCELED are alternative ends, never chained.
 */
public enum OrderStatus implements Ranked {

    /** Placed and payable; no payment attempt yet. */
    CREATED(0),
    /** A payment attempt started; the order waits for its outcome. */
    PAYMENT_PENDING(1),
    /** An approved payment is attached: the customer paid and is owed the goods. */
    PAID(2),
    /** The payment ended without money moving. */
    FAILED(2),
    /** Paid, and part of the price was refunded at the PG; the rest is still held. */
    PARTIALLY_REFUNDED(3),
    /** Paid, and refunds at the PG gave the whole price back (the payment stays APPROVED, nothing left to refund). */
    REFUNDED(4),
    /** A paid order was cancelled and its payment refunded at the PG as a whole. */
    CANCELED(4);

    private final int rank;

    OrderStatus(int rank) {
        this.rank = rank;
    }

    @Override
    public int rank() {
        return rank;
    }

    /** Whether an approved payment is held for the order: paid, and not everything given back. */
    public boolean holdsPayment() {
        return this == PAID || this == PARTIALLY_REFUNDED;
    }
}
