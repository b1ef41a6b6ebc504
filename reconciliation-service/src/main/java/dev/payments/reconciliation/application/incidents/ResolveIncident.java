package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

import java.time.Clock;

/** An operator closes an incident and says what was done; the record stays forever. */
public final class ResolveIncident {

    private final Incidents incidents;
    private final IncidentAlerts alerts;
    private final Clock clock;

    public ResolveIncident(Incidents incidents, IncidentAlerts alerts, Clock clock) {
        this.incidents = incidents;
        this.alerts = alerts;
        this.clock = clock;
    }

    /**
     * @throws IncidentNotFoundException          no such incident
     * @throws IllegalIncidentTransitionException it is already RESOLVED (also when it was resolved meanwhile)
     */
    public Incident resolve(IncidentId id, String by, String resolution) {
        Incident current = incidents.find(id).orElseThrow(() -> new IncidentNotFoundException(id));
        Incident resolved = current.resolve(by, resolution, clock.instant());
        if (!incidents.update(resolved, current.state())) {
            throw new IllegalIncidentTransitionException(id, incidents.find(id).map(Incident::state)
                    .orElse(current.state()), IncidentState.RESOLVED);
        }
        alerts.changed(resolved);
        return resolved;
    }
}
