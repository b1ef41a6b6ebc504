package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.Incident;

/** Tells operators about incidents (port): metric, log line, optional webhook. Never blocks, never throws. */
public interface IncidentAlerts {

    void opened(Incident incident);

    void changed(Incident incident);
}
