package dev.payments.reconciliation.application.incidents;

import org.springframework.transaction.support.TransactionOperations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

import java.time.Clock;

/** An operator takes an incident: the alert stops and the settler leaves the payment to them. */
public final class AcknowledgeIncident {

    private final OperatorChange change;
    private final Clock clock;

    public AcknowledgeIncident(Incidents incidents, IncidentAlerts alerts, TransactionOperations transactions, Clock clock) {
        this.change = new OperatorChange(incidents, alerts, transactions);
        this.clock = clock;
    }

    /** @return the incident taken; refused when there is none, or it is not OPEN (also when it changed meanwhile) */
    public Answer<Incident> acknowledge(IncidentId id, String by, String note) {
        return change.apply(id, IncidentState.ACKNOWLEDGED, current -> current.acknowledge(by, note, clock.instant()));
    }
}
