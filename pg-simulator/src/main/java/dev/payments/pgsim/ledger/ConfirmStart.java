package dev.payments.pgsim.ledger;

/** The ledger's answer when a confirm arrives: processing may start, or the PG refuses it up front. */
public sealed interface ConfirmStart {

    /** The payment is now IN_PROGRESS; the caller must finish it with approve or abort. */
    record Started(Payment payment) implements ConfirmStart {
    }

    /** Nothing changed on the books. */
    record Refused(Refusal refusal, String message) implements ConfirmStart {
    }

    /** Why a confirm is refused before any processing; each maps to one Toss error code. */
    enum Refusal {
        /** The order already has a payment that is being processed, approved or cancelled. */
        ALREADY_PROCESSED_PAYMENT,
        /** The paymentKey is known under a different orderId. */
        NOT_MATCHES_ORDER_ID
    }
}
