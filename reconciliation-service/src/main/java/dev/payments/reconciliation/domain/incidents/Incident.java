package dev.payments.reconciliation.domain.incidents;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * Something a human must close: money the system could not put right by itself. Never deleted; one per subject (a
 * payment, or a PG transaction no payment of ours explains), so a condition that persists never opens a second one.
 * The ledger audit counts a PG approval as accounted for by an incident in any state: a resolved incident is a
 * human's statement of what happened to that money.
 *
 * @param subject          what the incident is about: {@code payment:<id>} or {@code pg:<transactionKey>}
 * @param amount           the money at stake, when known
 * @param attempts         settle attempts made before (and while) it was open
 * @param acknowledgeNote  what the human who took it said, or null
 * @param outcome          what was established about the money, or null while not RESOLVED
 * @param resolution       how it was closed, in words, or null while not RESOLVED
 */
public record Incident(IncidentId id, String subject, IncidentReason reason, IncidentState state,
                       PaymentId paymentId, OrderId orderId, Money amount, String pgTransactionKey, String detail,
                       int attempts, Instant openedAt, String acknowledgedBy, Instant acknowledgedAt,
                       String acknowledgeNote, String resolvedBy, Instant resolvedAt, ResolutionOutcome outcome,
                       String resolution, Instant updatedAt) {

    /** Who resolves an incident when the settler repaired the payment after all. */
    public static final String SYSTEM = "reconciliation-service";

    private static final int MAX_TEXT = 2000;

    public Incident {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(openedAt, "opened");
        Objects.requireNonNull(updatedAt, "updated");
        if ((state == IncidentState.RESOLVED) != (resolvedAt != null)) {
            throw new IllegalArgumentException("a RESOLVED incident, and only that, has a resolution time");
        }
        if ((state == IncidentState.RESOLVED) != (outcome != null)) {
            throw new IllegalArgumentException("a RESOLVED incident, and only that, has an outcome");
        }
        detail = detail.length() <= MAX_TEXT ? detail : detail.substring(0, MAX_TEXT - 3) + "...";
    }

    public static String subjectOf(PaymentId paymentId) {
        return "payment:" + paymentId;
    }

    public static String subjectOf(String pgTransactionKey) {
        return "pg:" + pgTransactionKey;
    }

    /** A new OPEN incident about a payment (its order and amount as reconciliation knows them). */
    public static Incident open(IncidentReason reason, PaymentId paymentId, OrderId orderId, Money amount,
                                String pgTransactionKey, String detail, int attempts, Instant at) {
        Objects.requireNonNull(paymentId, "payment id");
        return new Incident(IncidentId.random(), subjectOf(paymentId), reason, IncidentState.OPEN, paymentId, orderId,
                amount, pgTransactionKey, detail, attempts, at, null, null, null, null, null, null, null, at);
    }

    /** A new OPEN incident about a PG transaction that no payment of ours explains. */
    public static Incident openForTransaction(IncidentReason reason, String pgTransactionKey, OrderId orderId,
                                              Money amount, String detail, Instant at) {
        Objects.requireNonNull(pgTransactionKey, "transaction key");
        return new Incident(IncidentId.random(), subjectOf(pgTransactionKey), reason, IncidentState.OPEN, null,
                orderId, amount, pgTransactionKey, detail, 0, at, null, null, null, null, null, null, null, at);
    }

    /** A human takes it: OPEN -> ACKNOWLEDGED. */
    public Incident acknowledge(String by, String note, Instant at) {
        requireWho(by);
        if (state != IncidentState.OPEN) {
            throw new IllegalIncidentTransitionException(id, state, IncidentState.ACKNOWLEDGED);
        }
        return new Incident(id, subject, reason, IncidentState.ACKNOWLEDGED, paymentId, orderId, amount,
                pgTransactionKey, detail, attempts, openedAt, by, at, note, null, null, null, null, at);
    }

    /** Closed, with what was established and what was done: OPEN or ACKNOWLEDGED -> RESOLVED. */
    public Incident resolve(String by, ResolutionOutcome outcome, String howResolved, Instant at) {
        requireWho(by);
        Objects.requireNonNull(outcome, "outcome");
        if (howResolved == null || howResolved.isBlank()) {
            throw new IllegalArgumentException("a resolution must say what was done");
        }
        if (state == IncidentState.RESOLVED) {
            throw new IllegalIncidentTransitionException(id, state, IncidentState.RESOLVED);
        }
        return new Incident(id, subject, reason, IncidentState.RESOLVED, paymentId, orderId, amount,
                pgTransactionKey, detail, attempts, openedAt, acknowledgedBy, acknowledgedAt, acknowledgeNote, by, at,
                outcome, howResolved, at);
    }

    /** Another settle attempt was made while it is open; the detail says how it ended. */
    public Incident attempted(int totalAttempts, String lastDetail, Instant at) {
        if (state == IncidentState.RESOLVED) {
            throw new IllegalIncidentTransitionException(id, state, state);
        }
        return new Incident(id, subject, reason, state, paymentId, orderId, amount, pgTransactionKey,
                lastDetail == null ? detail : lastDetail, totalAttempts, openedAt, acknowledgedBy, acknowledgedAt,
                acknowledgeNote, resolvedBy, resolvedAt, outcome, resolution, at);
    }

    private static void requireWho(String by) {
        if (by == null || by.isBlank()) {
            throw new IllegalArgumentException("who acts on an incident must be named");
        }
    }
}
