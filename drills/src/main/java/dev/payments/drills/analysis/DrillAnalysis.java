package dev.payments.drills.analysis;

import dev.payments.drills.analysis.DrillResult.Check;
import dev.payments.drills.analysis.DrillResult.Detect;
import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Phase;
import dev.payments.drills.analysis.DrillResult.Pool;
import dev.payments.drills.analysis.DrillResult.Recover;
import dev.payments.drills.analysis.DrillResult.Second;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Turns what a drill saw into the field reports' numbers and the checks that decide its exit status. No I/O. */
public final class DrillAnalysis {

    private static final List<String> ANSWERED = List.of("approved", "declined");

    private DrillAnalysis() {
    }

    public static Measurements measure(Observations o) {
        List<Attempt> attempts = o.attempts();
        Clock clock = o.clock();
        Double faultAt = first(o.marks(), Timeline.FAULT);
        Double recoveredAt = first(o.marks(), Timeline.RECOVERED);
        Observations.Recovery watched = o.recovery();
        Recover recover = new Recover(recoveredAt, watched.unsettledAtStart(),
                after(watched.allSettledAt(), recoveredAt), after(watched.caughtUpAt(), recoveredAt),
                o.settleDeadline().toSeconds());
        List<Phase> phases = phases(attempts, clock);
        return new Measurements(Stats.round(o.durationSeconds()), attempts.size(), o.notSent(),
                Stats.outcomes(attempts), Stats.latency(attempts), phases, audit(o.audit()),
                pool(o.samples()), o.transitions(), detect(faultAt, attempts, o.transitions(), o.samples(), clock),
                recover, o.marks(), seconds(attempts, clock), o.samples(),
                Costs.of(phases, attempts, o.resources(), clock, first(o.marks(), Timeline.CAUGHT_UP)),
                o.resources());
    }

    /**
     * No approval lost, none doubled, the ledger identity holds, the services agree, no consumer dead-lettered an
     * event: the drill's exit status.
     *
     * @param deadLetters records that reached a dead-letter topic during the drill; null if Kafka could not be asked
     *                    (then there is no such check)
     */
    public static List<Check> checks(LedgerAudit audit, Map<String, Long> deadLetters) {
        List<Check> checks = new ArrayList<>();
        checks.add(new Check("no approval lost", audit.lost() == 0,
                audit.lost() + " PG approvals with no PAID order, no cancel, no incident and no payment in flight"
                        + (audit.lostOrders().isEmpty() ? "" : " " + audit.lostOrders())));
        checks.add(new Check("no charge doubled", audit.doubled() == 0,
                audit.doubled() + " orders approved more than once at the PG"));
        checks.add(new Check("ledger identity holds (drill's audit)", audit.holds(), audit.identity()
                + (audit.paidWithoutPgApproval() > 0 ? "; " + audit.paidWithoutPgApproval()
                + " PAID without a PG approval" : "")));
        checks.add(new Check("order-service agrees with payment-service", audit.approvedButOrderNotPaid() == 0,
                audit.approvedButOrderNotPaid() + " of " + audit.approvedPayments()
                        + " APPROVED payments whose order is not PAID after the settle deadline"));
        DrillResult.Audit withReconciliation = audit(audit);
        if (withReconciliation.reconciliationHolds() != null) {
            checks.add(new Check("ledger identity holds (reconciliation-service)",
                    withReconciliation.reconciliationHolds(),
                    String.valueOf(withReconciliation.reconciliationIdentity())));
        }
        if (deadLetters != null) {
            // An event on a DLT is an effect that did not happen in some service: an order, a notice, a projection.
            long parked = deadLetters.values().stream().mapToLong(Long::longValue).sum();
            checks.add(new Check("no event dead-lettered", parked == 0,
                    parked + " records reached a dead-letter topic" + (parked == 0 ? "" : " " + deadLetters)));
        }
        return checks;
    }

    static DrillResult.Audit audit(LedgerAudit audit) {
        if (audit.reconciliationLedger() == null) {
            return new DrillResult.Audit(audit, null, null);
        }
        return new DrillResult.Audit(audit, audit.reconciliationLedger().path("holds").asBoolean(),
                audit.reconciliationLedger().path("identity").asText(null));
    }

    /** Per phase, in the order the phases began: counts, latency, throughput over its own span. */
    static List<Phase> phases(List<Attempt> attempts, Clock clock) {
        Map<String, List<Attempt>> byPhase = new LinkedHashMap<>();
        attempts.stream().sorted(Comparator.comparingLong(Attempt::intendedNanos))
                .forEach(a -> byPhase.computeIfAbsent(a.phase(), k -> new ArrayList<>()).add(a));
        List<Phase> phases = new ArrayList<>();
        byPhase.forEach((name, list) -> {
            double start = list.stream().mapToDouble(a -> clock.seconds(a.intendedNanos())).min().orElse(0);
            double end = list.stream().mapToDouble(a -> clock.seconds(a.endNanos())).max().orElse(0);
            double span = Math.max(end - start, 1e-3);
            long approved = list.stream().filter(a -> "approved".equals(a.outcome())).count();
            phases.add(new Phase(name, Stats.round(start), Stats.round(end), list.size(), Stats.outcomes(list),
                    Stats.latency(list), Stats.round(list.size() / span), Math.round(approved / span * 100),
                    list.stream().mapToInt(Attempt::notFoundRetries).sum()));
        });
        return phases;
    }

    static Pool pool(List<Sample> samples) {
        return new Pool(max(samples, Sample::poolPending), max(samples, Sample::poolActive), timeoutsDelta(samples),
                max(samples, Sample::threads), max(samples, Sample::cpu));
    }

    /** How long after the first fault each sign of it showed: an answered failure, OPEN, a 503, the alert. */
    static Detect detect(Double faultAt, List<Attempt> attempts, List<MetricsSampler.Transition> transitions,
                         List<Sample> samples, Clock clock) {
        if (faultAt == null) {
            return new Detect(null, null, null, null, null, null, ApprovalAlertReplay.DESCRIPTION);
        }
        Double firstFailure = attempts.stream().filter(a -> !ANSWERED.contains(a.outcome()))
                .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= faultAt).min(Double::compare).orElse(null);
        Double open = transitions.stream().filter(t -> "OPEN".equals(t.to()) && t.t() >= faultAt)
                .map(MetricsSampler.Transition::t).findFirst().orElse(null);
        Double refusal = attempts.stream().filter(a -> "pg_unavailable".equals(a.outcome()))
                .map(a -> clock.seconds(a.endNanos())).filter(t -> t >= faultAt).min(Double::compare).orElse(null);
        ApprovalAlertReplay.Evaluation alert = ApprovalAlertReplay.replay(samples, faultAt);
        return new Detect(Stats.round(faultAt), after(firstFailure, faultAt), after(open, faultAt),
                after(refusal, faultAt), after(alert.trueAt(), faultAt), after(alert.firingAt(), faultAt),
                ApprovalAlertReplay.DESCRIPTION);
    }

    /** Answers by the second they arrived in. */
    static List<Second> seconds(List<Attempt> attempts, Clock clock) {
        Map<Integer, List<Attempt>> bySecond = attempts.stream()
                .collect(Collectors.groupingBy(a -> (int) Math.floor(clock.seconds(a.endNanos())), TreeMap::new,
                        Collectors.toList()));
        List<Second> seconds = new ArrayList<>();
        bySecond.forEach((t, list) -> {
            DrillResult.Latency l = Stats.latency(list);
            seconds.add(new Second(t, Stats.outcomes(list), l.p50(), l.p99(), l.max()));
        });
        return seconds;
    }

    /** Pool timeouts during the drill, summed over restarts of payment-service (its counter starts again at 0). */
    static Double timeoutsDelta(List<Sample> samples) {
        double total = 0;
        Double previous = null;
        boolean any = false;
        for (Sample s : samples) {
            if (s.poolTimeouts() == null) {
                continue;
            }
            any = true;
            if (previous != null) {
                total += s.poolTimeouts() >= previous ? s.poolTimeouts() - previous : s.poolTimeouts();
            }
            previous = s.poolTimeouts();
        }
        return any ? total : null;
    }

    private static Double first(List<Timeline.Mark> marks, String name) {
        return marks.stream().filter(m -> m.name().equals(name)).map(Timeline.Mark::t).findFirst().orElse(null);
    }

    static Double after(Double t, Double origin) {
        if (t == null || origin == null) {
            return null;
        }
        return Math.round((t - origin) * 1000.0) / 1000.0;
    }

    private static Double max(List<Sample> samples, Function<Sample, Double> f) {
        return samples.stream().map(f).filter(Objects::nonNull).max(Double::compare).orElse(null);
    }
}
