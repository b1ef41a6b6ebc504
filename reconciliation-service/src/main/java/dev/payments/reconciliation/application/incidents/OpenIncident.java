package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.Incident;

import java.util.Optional;

/** Records an incident, once per subject, and alerts the operators. */
public final class OpenIncident {

    private final Incidents incidents;
    private final IncidentAlerts alerts;

    public OpenIncident(Incidents incidents, IncidentAlerts alerts) {
        this.incidents = incidents;
        this.alerts = alerts;
    }

    /** @return the incident if it was opened now; empty if its subject already had one (nothing changes then) */
    public Optional<Incident> open(Incident incident) {
        if (!incidents.insertIfNew(incident)) {
            return Optional.empty();
        }
        alerts.opened(incident);
        return Optional.of(incident);
    }
}
