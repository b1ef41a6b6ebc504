package dev.payments.payment.domain;

/** Where a refund is; what each state means for the money. */
public enum RefundStatus {
    /** Its amount is reserved on the payment and the PG may be being asked now: the money may move. */
    REQUESTED,
    /** The PG gave the amount back. */
    SUCCEEDED,
    /** The PG did not give it back (refused, or never booked it); the reservation is released. */
    FAILED,
    /** The PG's answer was lost: the money may have moved. Still reserved; the PG's cancels of the payment settle it. */
    UNKNOWN;

    /** Its amount still counts against what is refundable, whatever the PG did. */
    public boolean holdsReservation() {
        return this == REQUESTED || this == UNKNOWN;
    }
}
