package dev.payments.reconciliation.domain.settling;

import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * Where the settling of one payment stands: how often it was tried, how the last try ended, and when to try again.
 * Each attempt yields the next state through {@link #after}; the decisions (what settles, what backs off, what counts
 * toward a compensation incident) live here and nowhere else.
 *
 * @param unsettledStreak      attempts in a row that did not settle the payment; drives the backoff
 * @param compensationFailures compensating cancels in a row that failed; an answer from the PG resets it
 * @param lastPgState          what the PG last said through payment-service, or null
 * @param nextAttemptAt        not to be tried before this
 * @param settledAt            when a sync reported the payment's final outcome; it is never tried again after that
 * @param settledStatus        that final outcome
 */
public record Settlement(PaymentId paymentId, OrderId orderId, SettleTrigger trigger, int attempts,
                         int unsettledStreak, int compensationFailures, AttemptResult lastResult, String lastPgState,
                         String lastDetail, Instant firstAttemptAt, Instant lastAttemptAt, Instant nextAttemptAt,
                         Instant settledAt, PaymentStatus settledStatus) {

    private static final int MAX_DETAIL = 1000;

    public Settlement {
        Objects.requireNonNull(paymentId, "payment id");
        Objects.requireNonNull(orderId, "order id");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(nextAttemptAt, "next attempt");
        if ((settledAt == null) != (settledStatus == null)) {
            throw new IllegalArgumentException("settled time and status go together");
        }
        lastDetail = truncate(lastDetail);
    }

    /** A payment the settler has never tried: due at once. */
    public static Settlement first(PaymentId paymentId, OrderId orderId, SettleTrigger trigger, Instant now) {
        return new Settlement(paymentId, orderId, trigger, 0, 0, 0, null, null, null, null, null, now, null, null);
    }

    public boolean settled() {
        return settledAt != null;
    }

    /**
     * This settlement after one sync call that ended in {@code outcome} at {@code at}.
     *
     * @throws IllegalStateException    if the payment is already settled (it is never tried again)
     * @throws IllegalArgumentException for {@link SyncOutcome.Refused}, which says nothing about the payment
     */
    public Settlement after(SyncOutcome outcome, Instant at, Backoff backoff) {
        if (settled()) {
            throw new IllegalStateException("payment " + paymentId + " is already settled as " + settledStatus);
        }
        Instant first = firstAttemptAt != null ? firstAttemptAt : at;
        if (outcome instanceof SyncOutcome.Answered answered) {
            if (answered.settled()) {
                return new Settlement(paymentId, orderId, trigger, attempts + 1, 0, 0, AttemptResult.SETTLED,
                        answered.pgState(), answered.action(), first, at, at, at, answered.paymentStatus());
            }
            // The PG answered: it is up, and no cancel was attempted (it has not decided), so compensation starts over.
            Settlement next = retry(AttemptResult.PG_UNDECIDED, answered.pgState(), answered.action(), 0, first, at,
                    backoff);
            return answered.retryAt() == null ? next : next.askedAgainBy(answered.retryAt());
        }
        if (outcome instanceof SyncOutcome.PgFailed failed) {
            boolean cancel = failed.stage() == FailureStage.CANCEL;
            return retry(cancel ? AttemptResult.COMPENSATION_FAILED : AttemptResult.PG_FAILED,
                    cancel ? "DONE" : lastPgState, failed.detail(),
                    cancel ? compensationFailures + 1 : compensationFailures, first, at, backoff);
        }
        if (outcome instanceof SyncOutcome.Unavailable unavailable) {
            return retry(AttemptResult.UNAVAILABLE, lastPgState, unavailable.detail(), compensationFailures, first, at,
                    backoff);
        }
        if (outcome instanceof SyncOutcome.NotFound notFound) {
            return retry(AttemptResult.NOT_FOUND, lastPgState, notFound.detail(), compensationFailures, first, at,
                    backoff);
        }
        throw new IllegalArgumentException("a refused call says nothing about payment " + paymentId + ": " + outcome);
    }

    /** The same, not to be tried before {@code earliest} (an open incident slows the retries down). */
    public Settlement notBefore(Instant earliest) {
        if (!earliest.isAfter(nextAttemptAt)) {
            return this;
        }
        return new Settlement(paymentId, orderId, trigger, attempts, unsettledStreak, compensationFailures, lastResult,
                lastPgState, lastDetail, firstAttemptAt, lastAttemptAt, earliest, settledAt, settledStatus);
    }

    /**
     * The same, tried again no later than {@code by}: when payment-service can decide what it left undecided. Asking
     * then settles a payment the PG has no record of right after its grace, not up to a whole backoff (20 s) later;
     * asking before it only finds one the PG booked late, which the backoff's attempts still do.
     */
    private Settlement askedAgainBy(Instant by) {
        Instant at = by.isBefore(lastAttemptAt) ? lastAttemptAt : by;
        if (!at.isBefore(nextAttemptAt)) {
            return this;
        }
        return new Settlement(paymentId, orderId, trigger, attempts, unsettledStreak, compensationFailures, lastResult,
                lastPgState, lastDetail, firstAttemptAt, lastAttemptAt, at, settledAt, settledStatus);
    }

    /** The same, picked again for another reason (an order sweep may find a payment first seen as UNKNOWN). */
    public Settlement triggeredBy(SettleTrigger newTrigger) {
        return new Settlement(paymentId, orderId, newTrigger, attempts, unsettledStreak, compensationFailures,
                lastResult, lastPgState, lastDetail, firstAttemptAt, lastAttemptAt, nextAttemptAt, settledAt,
                settledStatus);
    }

    private Settlement retry(AttemptResult result, String pgState, String detail, int compensation, Instant first,
                             Instant at, Backoff backoff) {
        int streak = unsettledStreak + 1;
        return new Settlement(paymentId, orderId, trigger, attempts + 1, streak, compensation, result, pgState, detail,
                first, at, at.plus(backoff.delay(streak)), null, null);
    }

    private static String truncate(String text) {
        return text == null || text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL - 3) + "...";
    }
}
