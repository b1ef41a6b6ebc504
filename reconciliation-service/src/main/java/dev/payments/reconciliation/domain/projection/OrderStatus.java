package dev.payments.reconciliation.domain.projection;

/** An order's state as order-service published it, with its rank in the lifecycle (see {@link Ranked}). */
public enum OrderStatus implements Ranked {

    /** Placed and payable; no payment attempt yet. */
    CREATED(0),
    /** A payment attempt started; the order waits for its outcome. */
    PAYMENT_PENDING(1),
    /** An approved payment is attached: the customer paid and is owed the goods. */
    PAID(2),
    /** The payment ended without money moving. */
    FAILED(2),
    /** A paid order was cancelled and its payment refunded at the PG. */
    CANCELED(3);

    private final int rank;

    OrderStatus(int rank) {
        this.rank = rank;
    }

    @Override
    public int rank() {
        return rank;
    }
}
