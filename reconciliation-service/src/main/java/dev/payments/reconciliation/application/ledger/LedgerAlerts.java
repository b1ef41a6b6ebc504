package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.ledger.LedgerReport;

/** Tells operators what the ledger audit found (port): the mismatch gauge and a log line. */
public interface LedgerAlerts {

    void audited(LedgerReport report);

    void failed(String reason);
}
