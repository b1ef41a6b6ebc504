package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The settler's bookkeeping per payment, and the queries that find its work (port). */
public interface Settlements {

    /**
     * Payments to try now, longest waiting first: UNKNOWN ones, REQUESTED ones last changed before
     * {@code staleBefore}, and the payments of orders in PAYMENT_PENDING since before {@code staleBefore}. None that
     * is settled, backing off, claimed by another settler, or under an incident a human has taken.
     */
    List<SettleCandidate> due(Instant now, Instant staleBefore, int limit);

    /**
     * Takes the payment for one attempt until {@code until}, creating its settlement on first use.
     *
     * @return the settlement as it stands, or empty if another settler holds it or it is no longer due
     */
    Optional<Settlement> claim(SettleCandidate candidate, Instant now, Instant until, String claimant);

    /** Gives a claim back without an attempt. */
    void release(PaymentId paymentId);

    /** Stores the settlement after an attempt, releasing the claim, and appends the attempt to the history. */
    void record(Settlement settlement, SettleAttempt attempt);

    Optional<Settlement> find(PaymentId paymentId);

    /** The payment's attempts, oldest first. */
    List<SettleAttempt> attempts(PaymentId paymentId);

    /** Payments UNKNOWN or REQUESTED since before {@code before} that no incident is about yet. */
    List<Overdue> overduePayments(Instant before, int limit);

    /** Orders in PAYMENT_PENDING since before {@code before} whose payment no incident is about yet. */
    List<Overdue> overdueOrders(Instant before, int limit);
}
