package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The regular ledger audit on its schedule, with a fixed delay between runs. A run that throws is logged and the
 * schedule goes on.
 */
public class LedgerAuditSchedule {

    private static final Logger log = LoggerFactory.getLogger(LedgerAuditSchedule.class);

    private final AuditLedger auditLedger;

    /** @param cadence the bean {@code ledgerAuditCadence}, which {@link #run} is scheduled by */
    public LedgerAuditSchedule(AuditLedger auditLedger, Cadence cadence) {
        this.auditLedger = auditLedger;
        log.info("Ledger audit runs every {}", cadence.every());
    }

    @Scheduled(initialDelayString = "#{@ledgerAuditCadence.firstAfter()}",
            fixedDelayString = "#{@ledgerAuditCadence.every()}")
    public void run() {
        try {
            auditLedger.run();
        } catch (PgUnavailableException e) {
            // Already counted and logged by the ledger alerts; the previous result stands.
        } catch (RuntimeException e) {
            log.error("Ledger audit failed; the next one tries again", e);
        }
    }
}
