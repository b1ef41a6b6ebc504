package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the settle cycle and the ledger audit each on its own thread with a fixed delay between runs, so a slow
 * cycle (a hanging PG) never overlaps the next one and never delays the audit. Starts after the Kafka listeners
 * (last lifecycle phase) and stops before them. A run that throws is logged and the schedule goes on.
 */
public class ReconciliationSchedules implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReconciliationSchedules.class);

    private final SettlePayments settlePayments;
    private final AuditLedger auditLedger;
    private final Duration settleInterval;
    private final Duration auditInterval;
    private ScheduledExecutorService executor;

    /**
     * @param settleInterval null: no settle schedule
     * @param auditInterval  null: no audit schedule
     */
    public ReconciliationSchedules(SettlePayments settlePayments, AuditLedger auditLedger, Duration settleInterval,
                                   Duration auditInterval) {
        this.settlePayments = settlePayments;
        this.auditLedger = auditLedger;
        this.settleInterval = settleInterval;
        this.auditInterval = auditInterval;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "reconciliation-schedule");
            thread.setDaemon(true);
            return thread;
        });
        if (settleInterval != null) {
            executor.scheduleWithFixedDelay(this::settle, settleInterval.toMillis(), settleInterval.toMillis(),
                    TimeUnit.MILLISECONDS);
            log.info("Settler runs every {}", settleInterval);
        }
        if (auditInterval != null) {
            // The first audit waits a little so the projection has caught up after a restart.
            long first = Math.min(auditInterval.toMillis(), Duration.ofSeconds(10).toMillis());
            executor.scheduleWithFixedDelay(this::audit, first, auditInterval.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Ledger audit runs every {}", auditInterval);
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    private void settle() {
        try {
            CycleReport report = settlePayments.runCycle();
            if (report.attempted() > 0 || report.incidentsOpened() > 0) {
                log.info("Settle cycle: {} due, {} attempted, {} settled, {} failures{}, {} incidents opened, {} ms",
                        report.due(), report.attempted(), report.settled(), report.failures(),
                        report.stoppedEarly() ? ", stopped: " + report.stopReason() : "", report.incidentsOpened(),
                        report.took().toMillis());
            }
        } catch (RuntimeException e) {
            log.error("Settle cycle failed; the next one tries again", e);
        }
    }

    private void audit() {
        try {
            auditLedger.run();
        } catch (PgUnavailableException e) {
            // Already counted and logged by the ledger alerts; the previous result stands.
        } catch (RuntimeException e) {
            log.error("Ledger audit failed; the next one tries again", e);
        }
    }
}
