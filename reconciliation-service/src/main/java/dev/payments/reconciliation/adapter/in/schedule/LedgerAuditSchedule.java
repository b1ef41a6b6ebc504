package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The regular ledger audit on its schedule, with a fixed delay between runs. A run that throws is logged and the
 * schedule goes on. One replica per interval runs it ({@link ClusterJob}): two would audit the same window twice.
 */
public class LedgerAuditSchedule {

    private static final Logger log = LoggerFactory.getLogger(LedgerAuditSchedule.class);

    private final AuditLedger auditLedger;
    private final ClusterJob job;

    /**
     * @param cadence the bean {@code ledgerAuditCadence}, which {@link #run} is scheduled by
     * @param job     the lock that makes it one audit per interval across replicas
     */
    public LedgerAuditSchedule(AuditLedger auditLedger, Cadence cadence, ClusterJob job) {
        this.auditLedger = auditLedger;
        this.job = job;
        log.info("Ledger audit runs every {}", cadence.every());
    }

    @Scheduled(initialDelayString = "#{@ledgerAuditCadence.firstAfter()}",
            fixedDelayString = "#{@ledgerAuditCadence.every()}")
    public void run() {
        try {
            job.runOnce(auditLedger::run);
        } catch (PgUnavailableException e) {
            // Already counted and logged by the ledger alerts; the previous result stands.
        } catch (RuntimeException e) {
            log.error("Ledger audit failed; the next one tries again", e);
        }
    }
}
