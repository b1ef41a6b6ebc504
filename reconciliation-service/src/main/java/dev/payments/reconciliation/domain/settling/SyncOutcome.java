package dev.payments.reconciliation.domain.settling;

import dev.payments.reconciliation.domain.projection.PaymentStatus;

import java.time.Instant;
import java.util.Objects;

/** How one call of payment-service's sync ended, as the settler sees it. */
public sealed interface SyncOutcome {

    /**
     * payment-service asked the PG and wrote what followed.
     *
     * @param paymentStatus the payment after the sync
     * @param pgState       DONE, CANCELED, ABORTED, EXPIRED, READY, IN_PROGRESS or NOT_FOUND
     * @param action        NONE, APPROVED, FAILED, CANCELED, RETRY_LATER or MISMATCH
     * @param retryAt       for RETRY_LATER, when payment-service can decide it if the PG still says the same (a
     *                      payment the PG has no record of is FAILED then); null if no one can tell
     */
    record Answered(PaymentStatus paymentStatus, String pgState, String action, Instant retryAt)
            implements SyncOutcome {

        public Answered {
            Objects.requireNonNull(paymentStatus, "payment status");
        }

        public Answered(PaymentStatus paymentStatus, String pgState, String action) {
            this(paymentStatus, pgState, action, null);
        }

        /** Whether the payment has its final outcome now (it may have had it before: our projection lagged). */
        public boolean settled() {
            return !paymentStatus.unresolved();
        }

        /** payment-service found the PG's answer not to be about this payment, or contradicting it: a human decides. */
        public boolean mismatch() {
            return "MISMATCH".equals(action);
        }
    }

    /** 502 {@code PG_SYNC_FAILED}: the PG could not be asked, or refused the compensating cancel. Nothing was written. */
    record PgFailed(FailureStage stage, String detail) implements SyncOutcome {

        public PgFailed {
            Objects.requireNonNull(stage, "stage");
        }
    }

    /** payment-service could not be reached, timed out, or failed for a reason of its own (a 5xx that is not a PG failure). */
    record Unavailable(String detail) implements SyncOutcome {
    }

    /** payment-service does not know the payment (404). */
    record NotFound(String detail) implements SyncOutcome {
    }

    /**
     * payment-service refused the call itself (401, 403, another 4xx): our configuration is wrong, so no payment can be
     * settled until it is fixed. Not the payment's fault, so it is not recorded against it.
     */
    record Refused(int httpStatus, String detail) implements SyncOutcome {
    }

    /** Counts toward the cycle's "stop after N consecutive failures" (field report 001): the PG or payment-service is down. */
    default boolean isFailure() {
        return this instanceof PgFailed || this instanceof Unavailable;
    }
}
