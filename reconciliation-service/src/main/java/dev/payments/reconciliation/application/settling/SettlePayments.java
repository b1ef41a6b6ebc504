package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.CycleBreaker;
import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One settle cycle: every payment whose outcome we do not know (UNKNOWN, stale REQUESTED, the payment of an order
 * stuck in PAYMENT_PENDING) is handed to payment-service's sync, which asks the PG and repairs it (DESIGN.md,
 * "Reconciliation"). No database connection is held across a sync call (field report 000): each payment is claimed in
 * one short transaction and its result recorded in another. Then overdue payments and orders become incidents.
 *
 * <p>A cycle stops after {@code stopAfterFailures} consecutive failures (001); the next one starts afresh. A
 * payment backs off exponentially between attempts. A compensating cancel that fails {@code compensationAttempts}
 * times in a row opens an incident; the settler keeps trying such a payment, slowly, until a human takes the incident,
 * and resolves the incident itself if it succeeds.
 */
public final class SettlePayments {

    private static final Logger log = LoggerFactory.getLogger(SettlePayments.class);

    private final Settlements settlements;
    private final PaymentSync paymentSync;
    private final Incidents incidents;
    private final OpenIncident openIncident;
    private final IncidentAlerts alerts;
    private final EscalateOverdue escalateOverdue;
    private final SettleObserver observer;
    private final Clock clock;
    private final SettlePolicy policy;
    private final String claimant;

    public SettlePayments(Settlements settlements, PaymentSync paymentSync, Incidents incidents, OpenIncident openIncident,
                          IncidentAlerts alerts, EscalateOverdue escalateOverdue, SettleObserver observer, Clock clock,
                          SettlePolicy policy, String claimant) {
        this.settlements = settlements;
        this.paymentSync = paymentSync;
        this.incidents = incidents;
        this.openIncident = openIncident;
        this.alerts = alerts;
        this.escalateOverdue = escalateOverdue;
        this.observer = observer;
        this.clock = clock;
        this.policy = policy;
        this.claimant = claimant;
    }

    /**
     * Runs one cycle now. Cycles may overlap — the schedule on one replica, an operator's settle-now on this one or
     * another — and need no lock for it: a payment is synced only by the cycle that claimed it
     * ({@link Settlements#claim}), and an incident is opened once per payment (unique by subject).
     */
    public CycleReport runCycle() {
        CycleReport report = cycle(clock.instant());
        observer.cycleEnded(report);
        return report;
    }

    private CycleReport cycle(Instant started) {
        List<SettleCandidate> due = settlements.due(started, started.minus(policy.settleDeadline()), policy.batchSize());
        CycleBreaker breaker = new CycleBreaker(policy.stopAfterFailures());
        int attempted = 0;
        int settled = 0;
        int failures = 0;
        int incidentsOpened = 0;
        String stopReason = null;
        for (SettleCandidate candidate : due) {
            if (breaker.open()) {
                stopReason = breaker.consecutiveFailures() + " consecutive failures";
                log.warn("Settle cycle stopped after {} consecutive failures, {} due payments not tried; the next cycle "
                        + "tries again", breaker.consecutiveFailures(), due.size() - attempted);
                break;
            }
            Instant now = clock.instant();
            Optional<Settlement> claimed = settlements.claim(candidate, now, now.plus(policy.claimLease()), claimant);
            if (claimed.isEmpty()) {
                continue;
            }
            long t0 = System.nanoTime();
            SyncOutcome outcome = paymentSync.sync(candidate.paymentId());
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            if (outcome instanceof SyncOutcome.Refused refused) {
                settlements.release(candidate.paymentId());
                stopReason = "payment-service refused the sync call (HTTP " + refused.httpStatus() + ")";
                log.error("payment-service refused the sync call for payment {} with HTTP {}: {}. Check "
                        + "reconciliation-service's client credentials at the issuer (its secret, the payments:sync scope); "
                        + "no payment can be settled until it is fixed",
                        candidate.paymentId(), refused.httpStatus(), refused.detail());
                break;
            }
            attempted++;
            breaker.record(outcome);
            if (outcome.isFailure()) {
                failures++;
            }
            Instant at = clock.instant();
            Settlement next = claimed.get().triggeredBy(candidate.trigger()).after(outcome, at, policy.backoff());
            if (outcome instanceof SyncOutcome.Answered answered && answered.mismatch()) {
                // Not ours to decide: an approval of another amount or key, or the PG contradicting our books.
                if (mismatchIncident(candidate, answered, next, at)) {
                    incidentsOpened++;
                }
                if (!next.settled()) {
                    next = next.notBefore(at.plus(policy.incidentRetryInterval()));
                }
            } else if (next.settled()) {
                settled++;
                resolveIfOpen(next, at);
            } else {
                IncidentOutcome incident = compensationIncident(candidate, next, at);
                if (incident.opened()) {
                    incidentsOpened++;
                }
                if (incident.open()) {
                    next = next.notBefore(at.plus(policy.incidentRetryInterval()));
                }
            }
            SettleAttempt attempt = attempt(candidate, outcome, next, at, took);
            settlements.record(next, attempt);
            observer.attempted(attempt);
        }
        incidentsOpened += escalateOverdue.run();
        return new CycleReport(started, Duration.between(started, clock.instant()), due.size(), attempted, settled,
                failures, stopReason != null, stopReason, incidentsOpened);
    }

    private record IncidentOutcome(boolean open, boolean opened) {
    }

    /** @return whether an incident was opened now (one per payment: an existing one is only counted on) */
    private boolean mismatchIncident(SettleCandidate candidate, SyncOutcome.Answered answered, Settlement next,
                                     Instant at) {
        Optional<Incident> existing = incidents.findBySubject(Incident.subjectOf(candidate.paymentId()));
        if (existing.isPresent()) {
            if (existing.get().state() == IncidentState.OPEN) {
                incidents.update(existing.get().attempted(next.attempts(), null, at), IncidentState.OPEN);
            }
            return false;
        }
        String detail = "payment-service found the PG's answer for payment " + candidate.paymentId() + " of order "
                + candidate.orderId() + " not to match it (payment " + answered.paymentStatus() + ", PG "
                + answered.pgState() + "): another amount, order or payment key, or a state contradicting our books. "
                + "Nothing was changed; decide whether the money is kept or returned";
        return openIncident.open(Incident.open(IncidentReason.PG_MISMATCH, candidate.paymentId(), candidate.orderId(),
                candidate.amount(), null, detail, next.attempts(), at)).isPresent();
    }

    private IncidentOutcome compensationIncident(SettleCandidate candidate, Settlement next, Instant at) {
        String subject = Incident.subjectOf(candidate.paymentId());
        Optional<Incident> existing = incidents.findBySubject(subject);
        if (existing.isEmpty() && next.compensationFailures() >= policy.compensationAttempts()) {
            String detail = "The PG holds " + (candidate.amount() == null ? "the money" : candidate.amount())
                    + " of order " + candidate.orderId() + " (payment " + candidate.paymentId()
                    + ") and the compensating cancel failed " + next.compensationFailures() + " times in a row; last: "
                    + next.lastDetail();
            Optional<Incident> opened = openIncident.open(Incident.open(IncidentReason.COMPENSATION_FAILED,
                    candidate.paymentId(), candidate.orderId(), candidate.amount(), null, detail, next.attempts(), at));
            if (opened.isPresent()) {
                return new IncidentOutcome(true, true);
            }
            existing = incidents.findBySubject(subject);
        }
        if (existing.isPresent() && existing.get().state() == IncidentState.OPEN) {
            incidents.update(existing.get().attempted(next.attempts(), null, at), IncidentState.OPEN);
            return new IncidentOutcome(true, false);
        }
        return new IncidentOutcome(false, false);
    }

    private void resolveIfOpen(Settlement settled, Instant at) {
        incidents.findBySubject(Incident.subjectOf(settled.paymentId()))
                .filter(incident -> incident.state() == IncidentState.OPEN)
                .ifPresent(incident -> {
                    Incident resolved = incident.attempted(settled.attempts(), null, at).resolve(Incident.SYSTEM,
                            ResolutionOutcome.SETTLED_AUTOMATICALLY, "Settled automatically: payment " + settled.settledStatus() + " after "
                                    + settled.attempts() + " attempts (PG " + settled.lastPgState() + ")", at);
                    if (incidents.update(resolved, IncidentState.OPEN)) {
                        alerts.changed(resolved);
                    }
                });
    }

    private static SettleAttempt attempt(SettleCandidate candidate, SyncOutcome outcome, Settlement next, Instant at,
                                         Duration took) {
        PaymentStatus status = null;
        String pgState = null;
        String action = null;
        if (outcome instanceof SyncOutcome.Answered answered) {
            status = answered.paymentStatus();
            pgState = answered.pgState();
            action = answered.action();
        }
        String detail = outcome instanceof SyncOutcome.Answered ? null : next.lastDetail();
        return new SettleAttempt(candidate.paymentId(), at, candidate.trigger(), next.lastResult(), status, pgState,
                action, detail, took);
    }
}
