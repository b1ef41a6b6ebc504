package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.RepublishLostOutcomes;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The settle cycle on its schedule, followed by the republish of outcomes orders lost. A fixed delay, so a slow cycle
 * (a hanging PG) never overlaps the next one; the ledger audit has its own scheduler thread, so it is never delayed by
 * it. A cycle that throws is logged and the schedule goes on. Every replica's timer fires, but one replica per
 * interval runs the cycle and the republish ({@link ClusterJob}); the per-payment claims keep two cycles off the same
 * payment even if a lock ever expired mid-cycle.
 */
public class SettleSchedule {

    private static final Logger log = LoggerFactory.getLogger(SettleSchedule.class);

    private final SettlePayments settlePayments;
    private final RepublishLostOutcomes republishLostOutcomes;
    private final ClusterJob job;

    /**
     * @param cadence the bean {@code settleCadence}, which {@link #run} is scheduled by
     * @param job     the lock that makes it one cycle per interval across replicas
     */
    public SettleSchedule(SettlePayments settlePayments, RepublishLostOutcomes republishLostOutcomes, Cadence cadence,
                          ClusterJob job) {
        this.settlePayments = settlePayments;
        this.republishLostOutcomes = republishLostOutcomes;
        this.job = job;
        log.info("Settler runs every {}", cadence.every());
    }

    @Scheduled(initialDelayString = "#{@settleCadence.firstAfter()}", fixedDelayString = "#{@settleCadence.every()}")
    public void run() {
        try {
            job.runOnce(() -> {
                try {
                    cycle();
                } finally {
                    republish();
                }
            });
        } catch (RuntimeException e) {
            log.error("Settle cycle failed; the next one tries again", e);
        }
    }

    /** After the settling: a payment the sync just settled has had no time to reach its order yet. */
    private void republish() {
        try {
            republishLostOutcomes.run();
        } catch (RuntimeException e) {
            log.error("Republishing lost outcomes failed; the next cycle tries again", e);
        }
    }

    private void cycle() {
        CycleReport report = settlePayments.runCycle();
        if (report.attempted() > 0 || report.incidentsOpened() > 0) {
            log.info("Settle cycle: {} due, {} attempted, {} settled, {} failures{}, {} incidents opened, {} ms",
                    report.due(), report.attempted(), report.settled(), report.failures(),
                    report.stoppedEarly() ? ", stopped: " + report.stopReason() : "", report.incidentsOpened(),
                    report.took().toMillis());
        }
    }
}
