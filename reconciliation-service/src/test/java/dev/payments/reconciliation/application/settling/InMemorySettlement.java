package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.domain.settling.RepublishOutcome;

import dev.payments.reconciliation.application.incidents.IncidentAlerts;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The settler's ports in memory, with the JDBC adapters' contract, for unit tests of the cycle. */
final class InMemorySettlement {

    private InMemorySettlement() {
    }

    /** What the projection would offer: the test lists the candidates; due() applies the settlement rules. */
    static final class Settlements implements dev.payments.reconciliation.application.settling.Settlements {

        final List<SettleCandidate> candidates = new ArrayList<>();
        final Map<PaymentId, Settlement> settlements = new LinkedHashMap<>();
        final List<SettleAttempt> attempts = new ArrayList<>();
        final List<Overdue> overduePayments = new ArrayList<>();
        final List<Overdue> overdueOrders = new ArrayList<>();
        private final Incidents incidents;

        Settlements(Incidents incidents) {
            this.incidents = incidents;
        }

        @Override
        public List<SettleCandidate> due(Instant now, Instant staleBefore, int limit) {
            return candidates.stream()
                    .filter(c -> {
                        Settlement s = settlements.get(c.paymentId());
                        return s == null || (!s.settled() && !s.nextAttemptAt().isAfter(now));
                    })
                    .filter(c -> incidents.findBySubject(Incident.subjectOf(c.paymentId()))
                            .map(i -> i.state() == IncidentState.OPEN).orElse(true))
                    .sorted(Comparator.comparing(c -> settlements.containsKey(c.paymentId())
                            ? settlements.get(c.paymentId()).nextAttemptAt() : c.since()))
                    .limit(limit)
                    .toList();
        }

        @Override
        public Optional<Settlement> claim(SettleCandidate c, Instant now, Instant until, String claimant) {
            return Optional.of(settlements.computeIfAbsent(c.paymentId(),
                    id -> Settlement.first(id, c.orderId(), c.trigger(), now)));
        }

        @Override
        public void release(PaymentId paymentId) {
        }

        @Override
        public void record(Settlement settlement, SettleAttempt attempt) {
            settlements.put(settlement.paymentId(), settlement);
            attempts.add(attempt);
        }

        @Override
        public Optional<Settlement> find(PaymentId paymentId) {
            return Optional.ofNullable(settlements.get(paymentId));
        }

        @Override
        public List<SettleAttempt> attempts(PaymentId paymentId) {
            return attempts.stream().filter(a -> a.paymentId().equals(paymentId)).toList();
        }

        @Override
        public List<Overdue> overduePayments(Instant before, int limit) {
            return overduePayments.stream().filter(o -> !o.since().isAfter(before))
                    .filter(o -> incidents.findBySubject(Incident.subjectOf(o.paymentId())).isEmpty()).toList();
        }

        @Override
        public List<Overdue> overdueOrders(Instant before, int limit) {
            return overdueOrders.stream().filter(o -> !o.since().isAfter(before))
                    .filter(o -> incidents.findBySubject(Incident.subjectOf(o.paymentId())).isEmpty()).toList();
        }
    }

    static final class Incidents implements dev.payments.reconciliation.application.incidents.Incidents {

        final Map<String, Incident> bySubject = new LinkedHashMap<>();

        @Override
        public boolean insertIfNew(Incident incident) {
            return bySubject.putIfAbsent(incident.subject(), incident) == null;
        }

        @Override
        public Optional<Incident> find(IncidentId id) {
            return bySubject.values().stream().filter(i -> i.id().equals(id)).findFirst();
        }

        @Override
        public Optional<Incident> findBySubject(String subject) {
            return Optional.ofNullable(bySubject.get(subject));
        }

        @Override
        public boolean update(Incident incident, IncidentState expected) {
            Incident current = bySubject.get(incident.subject());
            if (current == null || current.state() != expected) {
                return false;
            }
            bySubject.put(incident.subject(), incident);
            return true;
        }

        @Override
        public List<Incident> list(IncidentState state, int limit) {
            return bySubject.values().stream().filter(i -> state == null || i.state() == state).limit(limit).toList();
        }

        @Override
        public List<Incident> all() {
            return List.copyOf(bySubject.values());
        }

        @Override
        public long count(IncidentState state) {
            return bySubject.values().stream().filter(i -> i.state() == state).count();
        }
    }

    /** payment-service's sync: answers scripted per payment (last answer repeats), calls recorded in order. */
    static final class ScriptedSync implements PaymentSync {

        final Map<PaymentId, Deque<SyncOutcome>> scripts = new HashMap<>();
        final List<PaymentId> calls = new ArrayList<>();
        SyncOutcome otherwise = new SyncOutcome.Answered(dev.payments.reconciliation.domain.projection.PaymentStatus.APPROVED,
                "DONE", "APPROVED");

        void answer(PaymentId id, SyncOutcome... outcomes) {
            scripts.put(id, new ArrayDeque<>(List.of(outcomes)));
        }

        @Override
        public SyncOutcome sync(PaymentId paymentId) {
            calls.add(paymentId);
            Deque<SyncOutcome> script = scripts.get(paymentId);
            if (script == null || script.isEmpty()) {
                return otherwise;
            }
            return script.size() == 1 ? script.peek() : script.poll();
        }

        long callsOf(PaymentId id) {
            return calls.stream().filter(id::equals).count();
        }
    }

    static final class Alerts implements IncidentAlerts, SettleObserver {

        final List<Incident> opened = new ArrayList<>();
        final List<Incident> changed = new ArrayList<>();
        final List<CycleReport> cycles = new ArrayList<>();

        @Override
        public void opened(Incident incident) {
            opened.add(incident);
        }

        @Override
        public void changed(Incident incident) {
            changed.add(incident);
        }

        @Override
        public void attempted(SettleAttempt attempt) {
        }

        @Override
        public void cycleEnded(CycleReport report) {
            cycles.add(report);
        }

        @Override
        public void republished(RepublishOutcome outcome) {
        }
    }
}
