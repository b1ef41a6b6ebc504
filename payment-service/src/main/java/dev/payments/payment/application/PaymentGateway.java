package dev.payments.payment.application;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;

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
     * Like {@link #admit()} for one renewal charge: the same breaker (one PG), but a bulkhead of its own, so a renewal
     * run never takes a live approval's slot.
     */
    Admission admitRenewal();

    /**
     * Charges a billing key under an admission from {@link #admitRenewal()}, with exactly {@link #approve}'s retries,
     * status query and typed outcome; the request's payment key is the one the PG gives the charge.
     */
    PgOutcome charge(Admission.Granted admission, ApprovalRequest request, BillingCharge billing, Instant deadline);

    /** The payment key the PG gives a billing charge for this order, known before the charge is sent. */
    String billingChargeKey(OrderId orderId);

    /**
     * @param billingKey  the key the PG issued for the member's card
     * @param customerKey whom the PG issued it to
     * @param orderName   what the PG shows the customer
     */
    record BillingCharge(String billingKey, String customerKey, String orderName) {
    }

    /**
     * Asks the PG to approve under an admission: retries where that is safe, asks for the status (by our payment
     * key) when the confirm gave no usable answer. Never throws for a PG problem; what the PG said is returned typed
     * and {@link dev.payments.payment.domain.Payment#record} decides what it means.
     */
    PgOutcome approve(Admission.Granted admission, ApprovalRequest request, Instant deadline);

    /**
     * The PG's view of the payment with our payment key ({@link PgStatus#notFound()} when it has none). Never blocked
     * by the breaker; throws when the PG could not be asked, {@link RecoveryCallsBusyException} when it was not.
     */
    PgStatus status(String paymentKey);

    /**
     * Cancels an approved charge at the PG; idempotent there. Never blocked by the breaker; shares the recovery slots
     * with {@link #status}, so {@link RecoveryCallsBusyException} says it was not sent.
     */
    PgStatus cancel(String paymentKey, String reason);

    /**
     * Gives {@code amount} of a payment back at the PG (a partial cancel under the refund's id as Idempotency-Key). Never
     * blocked by the breaker; a recovery call. Only a cancel that never reached the PG is tried again; any other failure
     * is answered by one status query, never by sending the cancel again (docs/refunds.md). Never throws for a PG
     * problem: what happened is returned typed and {@link dev.payments.payment.domain.Refund#record} decides.
     */
    RefundOutcome refund(String paymentKey, RefundId refundId, long amount, String cancelReason);

    /**
     * @param idempotencyKey the PG-side key, the same on every attempt, so a retried confirm cannot approve twice
     */
    record ApprovalRequest(String paymentKey, OrderId orderId, long amount, String idempotencyKey) {
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
         * @param reason     BREAKER_OPEN, BREAKER_TRIAL (half-open, its trial calls taken), PG_UNREACHABLE (every recent
         *                   attempt refused or failed: the PG is down, and the approval breaker is told) or
         *                   BULKHEAD_FULL
         * @param retryAfter when trying again makes sense
         */
        record Rejected(String reason, Duration retryAfter) implements Admission {
        }

        static Optional<Granted> granted(Admission admission) {
            return admission instanceof Granted granted ? Optional.of(granted) : Optional.empty();
        }
    }
}
