package dev.payments.reconciliation.application.incidents;

import org.springframework.transaction.support.TransactionOperations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;

import java.time.Clock;

/** An operator closes an incident and says what was done; the record stays forever. */
public final class ResolveIncident {

    private final OperatorChange change;
    private final Clock clock;

    public ResolveIncident(Incidents incidents, IncidentAlerts alerts, TransactionOperations transactions, Clock clock) {
        this.change = new OperatorChange(incidents, alerts, transactions);
        this.clock = clock;
    }

    /** @return the incident closed; refused when there is none, or it is already RESOLVED (also when resolved meanwhile) */
    public Answer<Incident> resolve(IncidentId id, String by, ResolutionOutcome outcome, String resolution) {
        return change.apply(id, IncidentState.RESOLVED,
                current -> current.resolve(by, outcome, resolution, clock.instant()));
    }
}
