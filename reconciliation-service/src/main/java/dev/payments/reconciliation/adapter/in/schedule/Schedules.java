package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.operations.ListDeadLetters;
import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.RepublishLostOutcomes;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.support.schedule.ClusterJob;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service's clock-driven work, each job at a fixed delay (a slow run, such as a cycle against a hanging PG, never
 * overlaps the next) on the shared scheduler ({@code spring.task.scheduling} gives each job its own thread, so the
 * settle cycle never delays the ledger audit). A run that throws is logged and the schedule goes on. The settle cycle
 * and the ledger audit run on one replica per interval ({@link ClusterJob}); the dead-letter count is read-only and
 * runs on every replica (alert on the max over replicas, not the sum). Each run is observed like a {@code @Scheduled}
 * method's ({@code tasks.scheduled.execution}, tagged with the job), so the HTTP calls it makes join its trace.
 */
public final class Schedules implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(Schedules.class);

    private final List<FixedDelayTask> tasks = new ArrayList<>();
    private final ObservationRegistry observations;

    public Schedules(ObservationRegistry observations) {
        this.observations = observations;
    }

    /**
     * The settle cycle, then the republish of outcomes orders lost (after the settling: a payment the sync just settled
     * has had no time to reach its order yet). The per-payment claims keep two cycles off the same payment even if the
     * job's lock ever expired mid-cycle.
     */
    public Schedules settle(SettlePayments settle, RepublishLostOutcomes republish, ClusterJob job, Duration every) {
        return add("Settler", every, every, () -> job.runOnce(() -> {
            try {
                logged(settle.runCycle());
            } finally {
                guarded("Republishing lost outcomes", republish::run);
            }
        }));
    }

    /** The ledger audit; a PG it cannot read is already counted and logged by the ledger alerts. */
    public Schedules ledgerAudit(AuditLedger audit, ClusterJob job, Duration firstAfter, Duration every) {
        return add("Ledger audit", firstAfter, every, () -> job.runOnce(() -> {
            try {
                audit.run();
            } catch (PgUnavailableException previousResultStands) {
                // the ledger alerts have it
            }
        }));
    }

    /** Counts every group's waiting dead letters, so the metric moves without anyone listing them. */
    public Schedules deadLetterCount(ListDeadLetters list, Duration every) {
        return add("Dead-letter count", every, every, list::countWaiting);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        tasks.forEach(registrar::addFixedDelayTask);
    }

    private Schedules add(String name, Duration firstAfter, Duration every, Runnable run) {
        log.info("{} runs every {}", name, every);
        tasks.add(new FixedDelayTask(() -> Observation.createNotStarted("tasks.scheduled.execution", observations)
                .lowCardinalityKeyValue("job", name).observe(() -> guarded(name, run)), every, firstAfter));
        return this;
    }

    private static void guarded(String name, Runnable run) {
        try {
            run.run();
        } catch (RuntimeException e) {
            log.error("{} failed; the next run tries again", name, e);
        }
    }

    private static void logged(CycleReport report) {
        if (report.attempted() > 0 || report.incidentsOpened() > 0) {
            log.info("Settle cycle: {} due, {} attempted, {} settled, {} failures{}, {} incidents opened, {} ms",
                    report.due(), report.attempted(), report.settled(), report.failures(),
                    report.stoppedEarly() ? ", stopped: " + report.stopReason() : "", report.incidentsOpened(),
                    report.took().toMillis());
        }
    }
}
