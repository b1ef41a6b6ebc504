package dev.payments.payment.domain;

import java.util.Locale;

/**
 * A payment's state at the PG (Toss v1 {@code status}), plus {@link #NOT_FOUND} for "the PG has no such payment".
 * What each state means for our payment is decided in {@link Payment#settleWith}; this only says what the PG did.
 */
public enum PgState {
    /** A checkout session; nothing confirmed. */
    READY,
    /** The PG is processing the confirm (or, asynchronous, waiting for the card company). */
    IN_PROGRESS,
    /** A virtual-account payment waiting for the deposit; not used here, undecided if ever seen. */
    WAITING_FOR_DEPOSIT,
    /** Approved: the customer's money moved. */
    DONE,
    /** Approved, then cancelled in full: the money moved and was given back. */
    CANCELED,
    /** Approved, then cancelled in part: a balance is still held. Our partial refunds do this (each one a refund). */
    PARTIAL_CANCELED,
    /** Declined or abandoned during processing: nothing charged. */
    ABORTED,
    /** A checkout session that timed out: nothing charged. */
    EXPIRED,
    /** The PG has no payment under the key we asked about. */
    NOT_FOUND,
    /** A state this code does not know: never guessed at, treated as undecided. */
    UNRECOGNIZED;

    public static PgState parse(String wire) {
        if (wire == null) {
            return UNRECOGNIZED;
        }
        try {
            PgState state = valueOf(wire.trim().toUpperCase(Locale.ROOT));
            return state == UNRECOGNIZED ? UNRECOGNIZED : state;
        } catch (IllegalArgumentException e) {
            return UNRECOGNIZED;
        }
    }
}
