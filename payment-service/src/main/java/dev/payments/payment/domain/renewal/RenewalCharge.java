package dev.payments.payment.domain.renewal;

import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.UUID;

/**
 * The charge of one subscription for one period: there is exactly one per (subscription, period), and it is the
 * database's primary key (docs/renewals.md). Each attempt is a payment like any other; a new attempt starts only from
 * {@link State#DUE}, i.e. once the previous attempt's payment is known to hold no money, so a period is never charged
 * twice however many runs, replicas or restarts reach it.
 */
public final class RenewalCharge {

    public enum State {
        /** To be charged once {@code nextAttemptAt} has come. */
        DUE,
        /** An attempt's payment is not settled yet (REQUESTED, UNKNOWN): nothing more until it is. */
        CHARGING,
        /** The period is paid. */
        CHARGED,
        /** Every dunning attempt was declined: the period stays unpaid. */
        GAVE_UP,
        /** The member cancelled the subscription while the period was unpaid: it is never charged. */
        CANCELED
    }

    /** What settling an attempt's payment did to the period. */
    public enum Settled {
        CHARGED,
        /** Declined; charged again by the dunning rules. */
        DECLINED_RETRY,
        /** Declined for the last time. */
        DECLINED_GAVE_UP,
        /** Nothing charged for another reason than the card (the PG not reached, the PG failed it): due again. */
        NOTHING_CHARGED,
        /** The payment is still unsettled; reconciliation settles it and a later run reads the result. */
        PENDING
    }

    private final SubscriptionId subscriptionId;
    private final LocalDate period;
    private State state;
    private int attempt;
    private int declines;
    private PaymentId paymentId;
    private Instant nextAttemptAt;
    private Instant firstDeclinedAt;

    private RenewalCharge(SubscriptionId subscriptionId, LocalDate period, State state, int attempt, int declines,
                          PaymentId paymentId, Instant nextAttemptAt, Instant firstDeclinedAt) {
        this.subscriptionId = Objects.requireNonNull(subscriptionId);
        this.period = Objects.requireNonNull(period);
        this.state = Objects.requireNonNull(state);
        this.attempt = attempt;
        this.declines = declines;
        this.paymentId = paymentId;
        this.nextAttemptAt = nextAttemptAt;
        this.firstDeclinedAt = firstDeclinedAt;
    }

    public static RenewalCharge due(SubscriptionId subscriptionId, LocalDate period, Instant now) {
        return new RenewalCharge(subscriptionId, period, State.DUE, 0, 0, null, now, null);
    }

    public static RenewalCharge restore(SubscriptionId subscriptionId, LocalDate period, State state, int attempt,
                                        int declines, PaymentId paymentId, Instant nextAttemptAt,
                                        Instant firstDeclinedAt) {
        return new RenewalCharge(subscriptionId, period, state, attempt, declines, paymentId, nextAttemptAt,
                firstDeclinedAt);
    }

    /**
     * Starts the next attempt with its payment. Its order id and the PG's Idempotency-Key are derived from
     * (subscription, period, attempt): a retried call of one attempt can never be booked twice at the PG.
     *
     * @throws IllegalStateException unless the period is due
     */
    public void startAttempt(PaymentId payment, Instant now) {
        if (state != State.DUE || nextAttemptAt.isAfter(now)) {
            throw new IllegalStateException("Renewal " + this + " is " + state + ", due at " + nextAttemptAt);
        }
        attempt++;
        paymentId = Objects.requireNonNull(payment);
        state = State.CHARGING;
    }

    /** The order this attempt pays for: stable for (subscription, period, attempt), a UUID like any order's. */
    public OrderId orderId() {
        requireAttempt();
        return new OrderId(UUID.nameUUIDFromBytes(("renewal:" + subscriptionId + ":" + period + ":" + attempt)
                .getBytes(StandardCharsets.UTF_8)));
    }

    /** The PG-side Idempotency-Key of this attempt. */
    public String idempotencyKey() {
        requireAttempt();
        return "renewal-" + subscriptionId + "-" + period + "-" + attempt;
    }

    /**
     * What the attempt's payment, as now recorded, means for the period. The payment's own table
     * ({@link dev.payments.payment.domain.Payment#record}, {@code settleWith}) decided what the PG's answer meant; this
     * only follows it.
     */
    public Settled settle(PaymentStatus payment, Instant now, DunningPolicy dunning) {
        if (state != State.CHARGING) {
            throw new IllegalStateException("Renewal " + this + " has no attempt in flight");
        }
        return switch (payment) {
            // CANCEL_OWED: the PG still holds the charge until our owed cancel is booked (docs/decisions/cancel-owed.md);
            // charging the period again before then could leave the member charged twice for a while.
            case REQUESTED, UNKNOWN, CANCEL_OWED -> Settled.PENDING;
            case APPROVED -> {
                state = State.CHARGED;
                yield Settled.CHARGED;
            }
            case DECLINED -> {
                declines++;
                if (firstDeclinedAt == null) {
                    firstDeclinedAt = now;
                }
                var retry = dunning.retryAt(declines, firstDeclinedAt);
                if (retry.isEmpty()) {
                    state = State.GAVE_UP;
                    yield Settled.DECLINED_GAVE_UP;
                }
                state = State.DUE;
                nextAttemptAt = retry.get();
                yield Settled.DECLINED_RETRY;
            }
            // FAILED: the PG was not reached or failed the charge; CANCELED: an approval given back (a compensation).
            // Either way the member holds no charge for the period, so it is due again.
            case FAILED, CANCELED -> {
                state = State.DUE;
                nextAttemptAt = now.plus(dunning.afterNothingCharged());
                yield Settled.NOTHING_CHARGED;
            }
        };
    }

    /**
     * The member cancelled the subscription: a period waiting for its (next) attempt is never charged. A period with an
     * attempt in flight is not stopped — its payment may hold money — and is stopped once settled without a charge.
     *
     * @return whether the period was stopped
     */
    public boolean stopForCancel() {
        if (state != State.DUE) {
            return false;
        }
        state = State.CANCELED;
        return true;
    }

    private void requireAttempt() {
        if (attempt == 0) {
            throw new IllegalStateException("Renewal " + this + " has no attempt yet");
        }
    }

    public SubscriptionId subscriptionId() {
        return subscriptionId;
    }

    public LocalDate period() {
        return period;
    }

    public State state() {
        return state;
    }

    public int attempt() {
        return attempt;
    }

    public int declines() {
        return declines;
    }

    public PaymentId paymentId() {
        return paymentId;
    }

    public Instant nextAttemptAt() {
        return nextAttemptAt;
    }

    public Instant firstDeclinedAt() {
        return firstDeclinedAt;
    }

    @Override
    public String toString() {
        return subscriptionId + "/" + period;
    }
}
