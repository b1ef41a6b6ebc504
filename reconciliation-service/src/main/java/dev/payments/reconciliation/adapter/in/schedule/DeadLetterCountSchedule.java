package dev.payments.reconciliation.adapter.in.schedule;

import dev.payments.reconciliation.application.operations.ListDeadLetters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Counts every group's waiting dead letters for the metric, so it moves without anyone listing them. Read-only: each
 * replica counts (alert on the max over replicas, not the sum). A count Kafka cannot answer is logged; the last
 * value stands.
 */
public class DeadLetterCountSchedule {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterCountSchedule.class);

    private final ListDeadLetters listDeadLetters;

    /** @param cadence the bean {@code deadLetterCountCadence}, which {@link #run} is scheduled by */
    public DeadLetterCountSchedule(ListDeadLetters listDeadLetters, Cadence cadence) {
        this.listDeadLetters = listDeadLetters;
        log.info("Dead letters are counted every {}", cadence.every());
    }

    @Scheduled(initialDelayString = "#{@deadLetterCountCadence.firstAfter()}",
            fixedDelayString = "#{@deadLetterCountCadence.every()}")
    public void run() {
        try {
            listDeadLetters.countWaiting();
        } catch (RuntimeException e) {
            log.warn("Counting dead letters failed; the next count tries again", e);
        }
    }
}
