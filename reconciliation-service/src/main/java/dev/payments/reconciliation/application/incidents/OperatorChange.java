package dev.payments.reconciliation.application.incidents;

import org.springframework.transaction.support.TransactionOperations;

import dev.payments.reconciliation.domain.incidents.IllegalIncidentTransitionException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;

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
     * @throws IncidentNotFoundException          no such incident
     * @throws IllegalIncidentTransitionException the move is illegal from where the incident is (also when it changed
     *                                            while we were deciding)
     */
    Incident apply(IncidentId id, IncidentState to, UnaryOperator<Incident> change) {
        // One short transaction, so whatever the service writes with the change (the operator audit trail's row,
        // docs/operations.md) commits or rolls back with it. The alert follows the commit.
        Incident changed = transactions.execute(status -> {
            Incident current = incidents.find(id).orElseThrow(() -> new IncidentNotFoundException(id));
            Incident next = change.apply(current);
            if (!incidents.update(next, current.state())) {
                throw new IllegalIncidentTransitionException(id, incidents.find(id).map(Incident::state)
                        .orElse(current.state()), to);
            }
            return next;
        });
        alerts.changed(changed);
        return changed;
    }
}
