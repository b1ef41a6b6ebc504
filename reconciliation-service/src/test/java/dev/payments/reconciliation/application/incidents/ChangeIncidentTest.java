package dev.payments.reconciliation.application.incidents;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** An operator's acknowledge and resolve: stored only over the state they were decided on, alerted only then. */
class ChangeIncidentTest {

    private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

    private final StoredIncidents incidents = new StoredIncidents();
    private final List<Incident> alerted = new ArrayList<>();
    private final IncidentAlerts alerts = new IncidentAlerts() {
        @Override
        public void opened(Incident incident) {
        }

        @Override
        public void changed(Incident incident) {
            alerted.add(incident);
        }
    };
    private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    private final ChangeIncident change = new ChangeIncident(incidents, alerts, TransactionOperations.withoutTransaction(), clock);

    @Test
    void anAcknowledgeAndThenAResolveAreStoredAndAlerted() {
        Incident open = incidents.add(anIncident());

        change.acknowledge(open.id(), "alice", "on it");
        Answer<Incident> answer = change.resolve(open.id(), "alice", ResolutionOutcome.REFUNDED_AT_PG,
                "refunded by hand");

        assertThat(answer).isInstanceOf(Answer.Done.class);
        Incident resolved = ((Answer.Done<Incident>) answer).value();

        assertThat(incidents.find(open.id())).contains(resolved);
        assertThat(resolved.acknowledgedBy()).isEqualTo("alice");
        assertThat(alerted).extracting(Incident::state).containsExactly(IncidentState.ACKNOWLEDGED,
                IncidentState.RESOLVED);
    }

    @Test
    void aChangeThatLostTheRaceIsRefusedWithTheStateThatWonAndNotAlerted() {
        Incident open = incidents.add(anIncident());
        // Between our read and our write, the settler resolved it.
        incidents.beforeNextUpdate = () -> incidents.put(open.resolve(Incident.SYSTEM, ResolutionOutcome.SETTLED_AUTOMATICALLY, "settled automatically", NOW));

        assertThat(change.acknowledge(open.id(), "alice", null))
                .isInstanceOfSatisfying(Answer.Refused.class, refused -> {
                    assertThat(refused.refusal()).isEqualTo(Refusal.ILLEGAL_INCIDENT_TRANSITION);
                    assertThat(refused.facts()).containsEntry("state", "RESOLVED");
                    assertThat(refused.detail()).endsWith("is RESOLVED and cannot become ACKNOWLEDGED");
                });
        assertThat(incidents.find(open.id()).map(Incident::resolvedBy)).contains(Incident.SYSTEM);
        assertThat(alerted).isEmpty();
    }

    @Test
    void anUnknownIncidentIsNotFound() {
        IncidentId unknown = IncidentId.random();

        assertThat(change.resolve(unknown, "alice", ResolutionOutcome.OTHER, "done"))
                .isInstanceOfSatisfying(Answer.Refused.class,
                        refused -> assertThat(refused.refusal()).isEqualTo(Refusal.INCIDENT_NOT_FOUND));
        assertThat(alerted).isEmpty();
    }

    private static Incident anIncident() {
        return Incident.open(IncidentReason.COMPENSATION_FAILED, new PaymentId(UUID.randomUUID()),
                new OrderId(UUID.randomUUID()), new Money(15_000, "KRW"), null, "the cancel failed 5 times", 5,
                NOW.minusSeconds(60));
    }

    /** The JDBC adapter's contract: an update applies only over the expected state. */
    private static final class StoredIncidents implements Incidents {

        private final Map<IncidentId, Incident> byId = new LinkedHashMap<>();
        Runnable beforeNextUpdate = () -> {
        };

        Incident add(Incident incident) {
            put(incident);
            return incident;
        }

        void put(Incident incident) {
            byId.put(incident.id(), incident);
        }

        @Override
        public boolean insertIfNew(Incident incident) {
            return byId.putIfAbsent(incident.id(), incident) == null;
        }

        @Override
        public Optional<Incident> find(IncidentId id) {
            return Optional.ofNullable(byId.get(id));
        }

        @Override
        public Optional<Incident> findBySubject(String subject) {
            return byId.values().stream().filter(i -> i.subject().equals(subject)).findFirst();
        }

        @Override
        public boolean update(Incident incident, IncidentState expected) {
            beforeNextUpdate.run();
            beforeNextUpdate = () -> {
            };
            if (byId.get(incident.id()).state() != expected) {
                return false;
            }
            byId.put(incident.id(), incident);
            return true;
        }

        @Override
        public List<Incident> list(IncidentState state, int limit) {
            return byId.values().stream().filter(i -> state == null || i.state() == state).limit(limit).toList();
        }

        @Override
        public List<Incident> all() {
            return List.copyOf(byId.values());
        }

        @Override
        public long count(IncidentState state) {
            return byId.values().stream().filter(i -> i.state() == state).count();
        }
    }
}
