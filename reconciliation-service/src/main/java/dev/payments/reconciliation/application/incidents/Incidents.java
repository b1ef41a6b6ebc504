package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

import java.util.List;
import java.util.Optional;

/** Storage of incident records (port). Nothing is ever deleted. */
public interface Incidents {

    /** @return false (and nothing stored) if an incident about the same subject exists, in any state */
    boolean insertIfNew(Incident incident);

    Optional<Incident> find(IncidentId id);

    Optional<Incident> findBySubject(String subject);

    /**
     * Stores a changed incident if it is still in {@code expected}: two operators, or an operator and the settler,
     * never overwrite each other's change.
     *
     * @return false if it has moved on meanwhile
     */
    boolean update(Incident incident, IncidentState expected);

    /** Newest first; every state when {@code state} is null. */
    List<Incident> list(IncidentState state, int limit);

    /** Every incident record (the ledger audit accounts approvals to them). */
    List<Incident> all();

    long count(IncidentState state);
}
