package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;
import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import org.springframework.transaction.support.TransactionOperations;

import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * An operator's change to an incident: decided on the incident as it is, stored only if it is still in that state
 * (two operators, or an operator and the settler, never overwrite each other's change), then alerted.
 */
final class OperatorChange {

    private final Incidents incidents;
    private final IncidentAlerts alerts;
    private final TransactionOperations transactions;

    OperatorChange(Incidents incidents, IncidentAlerts alerts, TransactionOperations transactions) {
        this.incidents = incidents;
        this.alerts = alerts;
        this.transactions = transactions;
    }

    /**
     * @param to     the state {@code change} moves the incident to
     * @param change the incident's own verb, which refuses an illegal move
     * @return the changed incident; refused INCIDENT_NOT_FOUND, or ILLEGAL_INCIDENT_TRANSITION when the move is illegal
     *         from where the incident is (also when it changed while we were deciding)
     */
    Answer<Incident> apply(IncidentId id, IncidentState to, UnaryOperator<Incident> change) {
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
