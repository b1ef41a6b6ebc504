package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.ledger.LedgerReport;

import java.util.Optional;

/** The stored results of the ledger audit (port). */
public interface LedgerAudits {

    void save(LedgerReport report);

    Optional<LedgerReport> latest();
}
