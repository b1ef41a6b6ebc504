package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.LedgerReport;

/** Tells operators what the ledger audit found (port): the mismatch gauge and a log line. */
public interface LedgerAlerts {

    void audited(LedgerReport report);

    void failed(String reason);
}
