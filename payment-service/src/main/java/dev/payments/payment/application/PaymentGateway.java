package dev.payments.payment.application;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Function;

/**
 * The PG as the use cases see it: approvals under an admission, and the recovery calls (status, cancel, refund). The
 * admission (a bulkhead slot and the breaker's permission) stays inside the adapter: a use case hands it the work to
 * run once admitted and never holds a permit.
 */
public interface PaymentGateway {

    /**
     * Runs {@code work} once a slot of {@code lane}'s bulkhead and the approval breaker's permission are taken, before
     * anything else: called before the database is touched, so a refused request costs no connection and writes
     * nothing. The work may ask the PG to approve at most once through the {@link Approver} it gets; if it returns
     * without asking, the breaker's permission is given back unused. The slot is released when the work returns.
     */
    <T> Admitted<T> underAdmission(Lane lane, Function<Approver, T> work);

    /** The payment key the PG gives a billing charge for this order, known before the charge is sent. */
    String billingChargeKey(OrderId orderId);

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

    /** Whose bulkhead an approval takes: a renewal run never takes a live approval's slot. Both share the breaker. */
    enum Lane {
        APPROVAL, RENEWAL
    }

    /** The right, under one admission, to ask the PG to approve once. */
    @FunctionalInterface
    interface Approver {

        /**
         * Retries where that is safe, asks for the status (by our payment key) when the confirm gave no usable answer.
         * Never throws for a PG problem; what the PG said is returned typed and
         * {@link dev.payments.payment.domain.Payment#record} decides what it means.
         */
        PgOutcome approve(ApprovalRequest request, Instant deadline);
    }

    /**
     * @param idempotencyKey the PG-side key, the same on every attempt, so a retried confirm cannot approve twice
     * @param billing        the member's billing key for a renewal charge; null for a confirm of a checkout
     */
    record ApprovalRequest(String paymentKey, OrderId orderId, long amount, String idempotencyKey,
                           BillingCharge billing) {
    }

    /**
     * @param billingKey  the key the PG issued for the member's card
     * @param customerKey whom the PG issued it to
     * @param orderName   what the PG shows the customer
     */
    record BillingCharge(String billingKey, String customerKey, String orderName) {
    }

    /** Why an admission was refused. */
    enum Rejection {
        /** Every slot of the lane's bulkhead is taken. */
        BULKHEAD_FULL,
        /** The approval breaker is open: the PG failed too many recent approvals. */
        BREAKER_OPEN,
        /** Half-open: the PG is being tried again and its few trial calls are taken. */
        BREAKER_TRIAL,
        /** Every recent attempt was refused or failed: the PG is down, and the approval breaker is told. */
        PG_UNREACHABLE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The work's result once admitted, or why it was not admitted. */
    sealed interface Admitted<T> {

        record Ran<T>(T value) implements Admitted<T> {
        }

        /** @param retryAfter when trying again makes sense */
        record Refused<T>(Rejection rejection, Duration retryAfter) implements Admitted<T> {
        }
    }
}
