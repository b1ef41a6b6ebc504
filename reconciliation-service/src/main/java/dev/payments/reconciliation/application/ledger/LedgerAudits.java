package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.ledger.LedgerReport;

import java.time.Instant;
import java.util.Optional;

/** The stored results of the ledger audit (port). */
public interface LedgerAudits {

    void save(LedgerReport report);

    Optional<LedgerReport> latest();

    /** Forgets audits from before {@code before}; they are history, not records. */
    void pruneBefore(Instant before);
}
