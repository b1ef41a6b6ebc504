package dev.payments.pgsim.ledger;

/** The ledger's answer to a cancel. */
public sealed interface CancelResult {

    /** A CANCEL transaction was booked now. */
    record Canceled(Payment payment) implements CancelResult {
    }

    /**
     * Nothing booked now: a full cancel of a payment already cancelled in full, or a repeat of an Idempotency-Key
     * whose cancel is on the books; the payment is returned as it is.
     */
    record AlreadyCanceled(Payment payment) implements CancelResult {
    }

    /** A partial cancel of a payment already cancelled in full (Toss's ALREADY_CANCELED_PAYMENT). */
    record NothingLeft(Payment payment) implements CancelResult {
    }

    /** More than is left to cancel (Toss's NOT_CANCELABLE_AMOUNT); nothing booked. */
    record AmountNotCancelable(Payment payment, long requested) implements CancelResult {
    }

    /** The Idempotency-Key was used for a cancel of another amount; nothing booked. */
    record KeyReused(Payment payment) implements CancelResult {
    }

    /** The payment never moved money (IN_PROGRESS, ABORTED): nothing to cancel. */
    record NotCancelable(Payment payment) implements CancelResult {
    }

    record NotFound(String paymentKey) implements CancelResult {
    }
}
