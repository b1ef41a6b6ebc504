package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.IncidentId;

/** No incident has that id. */
public class IncidentNotFoundException extends RuntimeException {

    public IncidentNotFoundException(IncidentId id) {
        super("No incident " + id);
    }
}
