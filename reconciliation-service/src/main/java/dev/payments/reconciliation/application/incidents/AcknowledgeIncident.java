package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

import java.time.Clock;

/** An operator takes an incident: the alert stops and the settler leaves the payment to them. */
public final class AcknowledgeIncident {

    private final Incidents incidents;
    private final IncidentAlerts alerts;
    private final Clock clock;

    public AcknowledgeIncident(Incidents incidents, IncidentAlerts alerts, Clock clock) {
        this.incidents = incidents;
        this.alerts = alerts;
        this.clock = clock;
    }

    /**
     * @throws IncidentNotFoundException          no such incident
     * @throws IllegalIncidentTransitionException it is not OPEN (also when it changed while we were deciding)
     */
    public Incident acknowledge(IncidentId id, String by, String note) {
        Incident current = incidents.find(id).orElseThrow(() -> new IncidentNotFoundException(id));
        Incident acknowledged = current.acknowledge(by, note, clock.instant());
        if (!incidents.update(acknowledged, current.state())) {
            throw new IllegalIncidentTransitionException(id, incidents.find(id).map(Incident::state)
                    .orElse(current.state()), IncidentState.ACKNOWLEDGED);
        }
        alerts.changed(acknowledged);
        return acknowledged;
    }
}
