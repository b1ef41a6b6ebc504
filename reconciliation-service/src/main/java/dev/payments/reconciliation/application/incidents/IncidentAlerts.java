package dev.payments.reconciliation.application.incidents;

import dev.payments.reconciliation.domain.incidents.Incident;

/** Tells operators about incidents (port): metric, log line, optional webhook. Never blocks, never throws. */
public interface IncidentAlerts {

    void opened(Incident incident);

    void changed(Incident incident);
}
