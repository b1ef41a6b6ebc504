package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.IncidentId;

/** No incident has that id. */
public class IncidentNotFoundException extends RuntimeException {

    public IncidentNotFoundException(IncidentId id) {
        super("No incident " + id);
    }
}
