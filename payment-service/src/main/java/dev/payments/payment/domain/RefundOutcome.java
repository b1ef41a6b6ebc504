package dev.payments.payment.domain;

/** How a refund's cancel call ended, typed by what it means for the money; {@link Refund#record} decides. */
public sealed interface RefundOutcome {

    /** The PG answered with the payment after the cancel. */
    record Answered(PgStatus status) implements RefundOutcome {
    }

    /** The PG said no (a 4xx: more than is left, already cancelled, another cancel at once): nothing booked. */
    record Refused(String code, String message) implements RefundOutcome {
    }

    /** The cancel never left us (no connection, no recovery slot): nothing booked. */
    record NotSent(String reason) implements RefundOutcome {
    }

    /**
     * No usable answer (timeout, reset, 5xx): the PG may have booked it.
     *
     * @param asked the PG's status asked once after it, or null when that failed too
     */
    record Lost(String reason, PgStatus asked) implements RefundOutcome {
    }
}
