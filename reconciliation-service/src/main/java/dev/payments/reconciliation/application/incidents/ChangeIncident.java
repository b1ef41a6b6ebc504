package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;
import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * An operator takes an incident (the alert stops and the settler leaves the payment to them) or closes it, saying what
 * was done; the record stays forever. Each change is decided on the incident as it is, stored only if it is still in
 * that state (two operators, or an operator and the settler, never overwrite each other's change), then alerted.
 */
public final class ChangeIncident {

    private final Incidents incidents;
    private final IncidentAlerts alerts;
    private final TransactionOperations transactions;
    private final Clock clock;

    public ChangeIncident(Incidents incidents, IncidentAlerts alerts, TransactionOperations transactions, Clock clock) {
        this.incidents = incidents;
        this.alerts = alerts;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** @return the incident taken; refused when there is none, or it is not OPEN (also when it changed meanwhile) */
    public Answer<Incident> acknowledge(IncidentId id, String by, String note) {
        return apply(id, IncidentState.ACKNOWLEDGED, current -> current.acknowledge(by, note, clock.instant()));
    }

    /** @return the incident closed; refused when there is none, or it is already RESOLVED (also when resolved meanwhile) */
    public Answer<Incident> resolve(IncidentId id, String by, ResolutionOutcome outcome, String resolution) {
        return apply(id, IncidentState.RESOLVED, current -> current.resolve(by, outcome, resolution, clock.instant()));
    }

    /**
     * @param to     the state {@code change} moves the incident to
     * @param change the incident's own verb, which refuses an illegal move
     * @return the changed incident; refused INCIDENT_NOT_FOUND, or ILLEGAL_INCIDENT_TRANSITION when the move is illegal
     *         from where the incident is (also when it changed while we were deciding)
     */
    private Answer<Incident> apply(IncidentId id, IncidentState to, UnaryOperator<Incident> change) {
        // One short transaction, so whatever the service writes with the change (the operator audit trail's row,
        // docs/operations.md) commits or rolls back with it. A refusal rolls it back. The alert follows the commit.
        Answer<Incident> answer = transactions.execute(status -> {
            Optional<Incident> current = incidents.find(id);
            if (current.isEmpty()) {
                return Answer.refused(Refusal.INCIDENT_NOT_FOUND, "No incident " + id);
            }
            IncidentState from = current.get().state();
            try {
                Incident next = change.apply(current.get());
                if (incidents.update(next, from)) {
                    return Answer.done(next);
                }
                from = incidents.find(id).map(Incident::state).orElse(from);
            } catch (IllegalIncidentTransitionException illegal) {
                from = illegal.from();
            }
            status.setRollbackOnly();
            return Answer.refused(Refusal.ILLEGAL_INCIDENT_TRANSITION,
                    "incident " + id + " is " + from + " and cannot become " + to, Map.of("state", from.name()));
        });
        if (answer instanceof Answer.Done<Incident> done) {
            alerts.changed(done.value());
        }
        return answer;
    }
}
