package dev.payments.payment.application;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** The PG as the use cases see it: admission, approval, status and cancel. */
public interface PaymentGateway {

    /**
     * Takes a bulkhead slot and the circuit breaker's permission for one approval, and nothing else: called before
     * the database is touched, so a rejected request costs no connection and writes nothing.
     */
    Admission admit();

    /**
     * Asks the PG to approve under an admission: retries where that is safe, asks for the status when the answer
     * was lost. Never throws for a PG problem; an answer nobody knows is {@link PgOutcome.Unknown}.
     */
    PgOutcome approve(Admission.Granted admission, ApprovalRequest request, Instant deadline);

    /** The PG's view of the order's payment; empty when the PG has never seen it. Never blocked by the breaker. */
    PgStatus status(OrderId orderId);

    /** Cancels an approved charge at the PG; idempotent there. Never blocked by the breaker. */
    PgStatus cancel(String paymentKey, String reason);

    /**
     * @param idempotencyKey the PG-side key, the same on every attempt, so a retried confirm cannot approve twice
     */
    record ApprovalRequest(String paymentKey, OrderId orderId, long amount, String idempotencyKey) {
    }

    /**
     * @param state          DONE, CANCELED, ABORTED, EXPIRED, READY, IN_PROGRESS, or NOT_FOUND
     * @param transactionKey the approval's transaction key when DONE
     */
    record PgStatus(String state, String paymentKey, String transactionKey, Instant approvedAt) {

        public static final String NOT_FOUND = "NOT_FOUND";

        public boolean isNotFound() {
            return NOT_FOUND.equals(state);
        }
    }

    /** The right to make one approval call, or the reason it was refused. */
    sealed interface Admission permits Admission.Granted, Admission.Rejected {

        /** Must be closed exactly once; closing releases the bulkhead slot. */
        non-sealed interface Granted extends Admission, AutoCloseable {

            /** Gives the breaker's permission back unused (the request ended before calling the PG). */
            void releaseUnused();

            @Override
            void close();
        }

        /**
         * @param reason     BREAKER_OPEN or BULKHEAD_FULL
         * @param retryAfter when trying again makes sense
         */
        record Rejected(String reason, Duration retryAfter) implements Admission {
        }

        static Optional<Granted> granted(Admission admission) {
            return admission instanceof Granted granted ? Optional.of(granted) : Optional.empty();
        }
    }
}
