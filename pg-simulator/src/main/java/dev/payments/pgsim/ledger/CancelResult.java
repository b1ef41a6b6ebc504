package dev.payments.pgsim.ledger;

/** The ledger's answer to a cancel. */
public sealed interface CancelResult {

    /** A CANCEL transaction was booked now. */
    record Canceled(Payment payment) implements CancelResult {
    }

    /** Already cancelled earlier: nothing booked, the same cancelled payment is returned. */
    record AlreadyCanceled(Payment payment) implements CancelResult {
    }

    /** The payment never moved money (READY, IN_PROGRESS, ABORTED, EXPIRED): nothing to cancel. */
    record NotCancelable(Payment payment) implements CancelResult {
    }

    record NotFound(String paymentKey) implements CancelResult {
    }
}
