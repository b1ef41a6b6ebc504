package dev.payments.payment.adapter.in.schedule;

import dev.payments.payment.application.PgSyncException;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.application.SyncPayment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.support.schedule.ClusterJob;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Settles refunds whose PG answer was lost (UNKNOWN) or never written (a REQUESTED whose request died), through the
 * approval's settle path: {@link SyncPayment} asks the PG for the payment and settles its refunds from its cancels,
 * never sending a cancel again. One replica per cycle; a run stops at the first PG failure (the rest waits for the
 * next cycle, as reconciliation's settler does: field report 001's "stop after failures" rule).
 */
public class SettleRefunds {

    private static final Logger log = LoggerFactory.getLogger(SettleRefunds.class);

    private final Refunds refunds;
    private final SyncPayment sync;
    private final ClusterJob job;
    private final Clock clock;
    private final Duration after;
    private final int batch;

    /**
     * @param after a refund younger than this may still be answered by its own request (the PG's cancel timeout is
     *              shorter), so it is left to it
     */
    public SettleRefunds(Refunds refunds, SyncPayment sync, ClusterJob job, Clock clock, Duration after, int batch) {
        this.refunds = refunds;
        this.sync = sync;
        this.job = job;
        this.clock = clock;
        this.after = after;
        this.batch = batch;
    }

    @Scheduled(initialDelayString = "${payment.refunds.settle-every:15s}",
            fixedDelayString = "${payment.refunds.settle-every:15s}")
    public void run() {
        try {
            job.runOnce(this::settleDue);
        } catch (RuntimeException e) {
            log.warn("Refund settle cycle failed; the next cycle tries again", e);
        }
    }

    /** @return how many payments were synced */
    public int settleDue() {
        List<PaymentId> due = refunds.withUnsettledRefunds(clock.instant().minus(after), batch);
        int synced = 0;
        for (PaymentId payment : due) {
            try {
                sync.sync(payment);
                synced++;
            } catch (PgSyncException e) {
                log.warn("Settling the refunds of payment {} failed ({}); {} left for the next cycle", payment,
                        e.getMessage(), due.size() - synced);
                break;
            }
        }
        return synced;
    }
}
