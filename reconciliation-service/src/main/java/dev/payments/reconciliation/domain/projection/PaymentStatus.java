package dev.payments.reconciliation.domain.projection;

/** A payment's state as reconciliation believes it, with its rank in the lifecycle (see {@link Ranked}). */
public enum PaymentStatus implements Ranked {

    /** A confirm went to the PG: money may move from here on, so the payment must end somewhere. */
    REQUESTED(0),
    /** The PG's answer was lost: money may have moved. Reconciliation must settle it with the PG. */
    UNKNOWN(1),
    /** The PG approved: the customer's money moved. */
    APPROVED(2),
    /** The PG declined (a business 4xx): no money moved. */
    DECLINED(2),
    /** Known that no money moved. */
    FAILED(2),
    /**
     * The PG holds money we must give back (compensation, a late approval after FAILED/DECLINED, a refund): payment-
     * service owes the PG a cancel, and the settler drives it until the PG confirms.
     */
    CANCEL_OWED(3),
    /** Money that moved was returned: the PG cancelled the approved charge. */
    CANCELED(4);

    private final int rank;

    PaymentStatus(int rank) {
        this.rank = rank;
    }

    @Override
    public int rank() {
        return rank;
    }

    /** Whether the PG took the customer's money at some point (it may since have been returned). */
    public boolean pgApproved() {
        return this == APPROVED || this == CANCEL_OWED || this == CANCELED;
    }

    /** Whether the payment still needs a final answer from the PG (for CANCEL_OWED: the cancel's confirmation). */
    public boolean unresolved() {
        return this == REQUESTED || this == UNKNOWN || this == CANCEL_OWED;
    }
}
