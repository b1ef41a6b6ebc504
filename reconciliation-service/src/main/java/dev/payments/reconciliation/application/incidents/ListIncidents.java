package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

import java.util.List;
import java.util.Optional;

/** Incidents for an operator, newest first. */
public final class ListIncidents {

    private static final int LIMIT = 500;

    private final Incidents incidents;

    public ListIncidents(Incidents incidents) {
        this.incidents = incidents;
    }

    /** @param state only this state, or every state when null */
    public List<Incident> list(IncidentState state) {
        return incidents.list(state, LIMIT);
    }

    public Optional<Incident> show(IncidentId id) {
        return incidents.find(id);
    }
}
