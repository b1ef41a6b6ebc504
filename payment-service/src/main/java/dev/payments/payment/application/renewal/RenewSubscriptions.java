package dev.payments.payment.application.renewal;

import dev.payments.contracts.PaymentPurpose;
import dev.payments.payment.application.PaymentAttempts.Attempt;
import dev.payments.payment.application.PaymentAttempts.Start;
import dev.payments.payment.application.PaymentAttempts;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.application.PaymentGateway.BillingCharge;
import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.application.PaymentGateway.Rejection;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.PaymentUnitOfWork;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.renewal.RenewalMetrics.Charge;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.Verdict;
import dev.payments.payment.domain.renewal.DunningPolicy;
import dev.payments.payment.domain.renewal.RenewalCharge;
import dev.payments.payment.domain.renewal.RenewalRun.Outcome;
import dev.payments.payment.domain.renewal.RenewalRun;
import dev.payments.payment.domain.renewal.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The renewal run (docs/renewals.md): charges every subscription period that is due, each attempt a
 * {@link PaymentAttempts payment attempt} like a checkout's, whose TX-1 claims the period and whose TX-2 lets the
 * period follow its payment. Workers claim one due charge at a time under
 * {@code FOR UPDATE SKIP LOCKED}, so overlapping runs and replicas share the work and never take the same period; the
 * PG calls go through the renewal bulkhead (never a live approval's slot) and the approval breaker, and the run stops
 * when that breaker opens. What it did not finish stays due for the next run.
 */
public class RenewSubscriptions {

    private static final Logger log = LoggerFactory.getLogger(RenewSubscriptions.class);
    private static final int SETTLE_BATCH = 500;

    private final RenewalCharges charges;
    private final Subscriptions subscriptions;
    private final RenewalRuns runs;
    private final Payments payments;
    private final PaymentAttempts attempts;
    private final PaymentGateway gateway;
    private final TransactionTemplate transaction;
    private final RenewalMetrics metrics;
    private final Clock clock;
    private final ZoneId zone;
    private final int workers;
    private final Duration chargeDeadline;
    private final DunningPolicy dunning;
    private final AtomicBoolean shuttingDown = new AtomicBoolean();
    private final AtomicInteger workerNames = new AtomicInteger();

    /**
     * @param zone           the zone whose calendar says which periods have begun
     * @param workers        charges in flight per run; the renewal bulkhead bounds all runs of this process together
     * @param chargeDeadline one charge's whole budget, retries and status query included
     */
    public RenewSubscriptions(RenewalCharges charges, Subscriptions subscriptions, RenewalRuns runs, Payments payments,
                              PaymentAttempts attempts, PaymentGateway gateway, TransactionTemplate transaction,
                              RenewalMetrics metrics, Clock clock, ZoneId zone, int workers, Duration chargeDeadline,
                              DunningPolicy dunning) {
        this.charges = charges;
        this.subscriptions = subscriptions;
        this.runs = runs;
        this.payments = payments;
        this.attempts = attempts;
        this.gateway = gateway;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
        this.zone = zone;
        this.workers = workers;
        this.chargeDeadline = chargeDeadline;
        this.dunning = dunning;
    }

    /** Records a new run (so an operator's trigger can answer with it at once); {@link #execute} does the work. */
    public RenewalRun begin(RenewalRun.Trigger trigger, String triggeredBy) {
        RenewalRun run = RenewalRun.start(trigger, triggeredBy, clock.instant());
        transaction.executeWithoutResult(tx -> runs.insert(run));
        return run;
    }

    /** Runs to the end: nothing due, the breaker open, a shutdown, or a failure. Never throws. */
    public RenewalRun execute(RenewalRun run) {
        RenewalTally tally = new RenewalTally(metrics);
        Outcome outcome;
        boolean started = false;
        try {
            settleInFlight();
            Instant now = clock.instant();
            int planned = transaction.execute(tx -> charges.planDue(LocalDate.ofInstant(now, zone), now));
            long due = charges.dueCount(now);
            tally.due(due);
            metrics.started(due);
            started = true;
            log.info("Renewal run {} ({} by {}): {} periods newly due, {} due in all", run.id(), run.trigger(),
                    run.triggeredBy(), planned, due);
            outcome = chargeAll(tally);
        } catch (RuntimeException e) {
            log.error("Renewal run {} failed; what it did not charge stays due for the next run", run.id(), e);
            outcome = Outcome.FAILED;
        }
        long remaining;
        try {
            remaining = charges.dueCount(clock.instant());
        } catch (RuntimeException e) {
            log.error("Renewal run {}: could not count what is left", run.id(), e);
            remaining = -1;
        }
        RenewalRun ended = run.ended(outcome, tally.counts(remaining), clock.instant());
        try {
            transaction.executeWithoutResult(tx -> runs.update(ended));
        } catch (RuntimeException e) {
            log.error("Renewal run {} ended {} but its record could not be written", run.id(), ended, e);
        }
        metrics.ended(ended, started);
        log.info("Renewal run {} ended {}: {}", run.id(), ended.outcome(), ended.counts());
        return ended;
    }

    /** Asks every run of this process to stop after its charges in flight (a shutdown). */
    public void requestStop() {
        shuttingDown.set(true);
    }

    private Outcome chargeAll(RenewalTally tally) {
        ExecutorService pool = Executors.newFixedThreadPool(workers, task -> {
            Thread thread = new Thread(task, "renewal-" + workerNames.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        AtomicReference<Outcome> stop = new AtomicReference<>();
        List<Future<?>> running = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                running.add(pool.submit(() -> work(tally, stop)));
            }
            for (Future<?> worker : running) {
                try {
                    worker.get();
                } catch (ExecutionException e) {
                    log.error("A renewal worker failed; the run stops", e.getCause());
                    stop.compareAndSet(null, Outcome.FAILED);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stop.compareAndSet(null, Outcome.STOPPED_SHUTDOWN);
                }
            }
        } finally {
            pool.shutdown();
        }
        return stop.get() == null ? Outcome.COMPLETED : stop.get();
    }

    private void work(RenewalTally tally, AtomicReference<Outcome> stop) {
        while (stop.get() == null) {
            if (shuttingDown.get()) {
                stop.compareAndSet(null, Outcome.STOPPED_SHUTDOWN);
                return;
            }
            Attempt<RenewalCharge.Settled> attempt = attempts.run(Lane.RENEWAL, chargeDeadline, tx1 -> startAttempt(),
                    (RenewalCharge claimed, PaymentUnitOfWork.Locked payment, Optional<Verdict> verdict) ->
                            settle(charges.lock(claimed.subscriptionId(), claimed.period()).orElseThrow(),
                                    payment.payment().status(), clock.instant()));
            if (attempt instanceof Attempt.Refused<RenewalCharge.Settled> refused) {
                if (refused.rejection() == Rejection.BREAKER_OPEN) {
                    log.warn("Renewal run stops: the PG breaker is open; the rest stays due for the next run");
                    stop.compareAndSet(null, Outcome.STOPPED_BREAKER_OPEN);
                    return;
                }
                // Another run of this process holds the slots (the bulkhead bounds them together), or the PG is
                // unreachable for a moment: each such refusal tells the approval breaker, which stops the run if it opens.
                pause(Duration.ofMillis(50));
            } else if (attempt instanceof Attempt.Stopped) {
                return;
            } else if (attempt instanceof Attempt.StartFailed<RenewalCharge.Settled> failed) {
                throw failed.cause();
            } else if (attempt instanceof Attempt.Recorded<RenewalCharge.Settled> recorded) {
                tally.settled(recorded.result());
            } else {
                // The PG may have charged and we could not write it down: the payment stays REQUESTED from TX-1, the
                // period stays CHARGING, reconciliation settles the payment and a later run reads the result.
                tally.count(Charge.DB_FAILED);
            }
        }
    }

    /** TX-1: claim a due period and start its attempt; the engine records the payment REQUESTED. */
    private Start<RenewalCharge, RenewalCharge.Settled> startAttempt() {
        Instant now = clock.instant();
        Optional<RenewalCharges.Claimed> claimed = charges.claimDue(now);
        if (claimed.isEmpty()) {
            return new Start.Stop<>(null);
        }
        RenewalCharge charge = claimed.get().charge();
        Subscription subscription = claimed.get().subscription();
        PaymentId paymentId = PaymentId.newId();
        charge.startAttempt(paymentId, now);
        OrderId orderId = charge.orderId();
        Payment payment = Payment.request(paymentId, orderId, subscription.memberId(), subscription.money(),
                gateway.billingChargeKey(orderId), PaymentPurpose.RENEWAL, now);
        charges.update(charge);
        charges.recordAttempt(charge);
        metrics.claimed();
        return new Start.Charge<>(charge, payment,
                new ApprovalRequest(payment.paymentKey(), orderId, payment.money().amount(), charge.idempotencyKey(),
                        new BillingCharge(subscription.billingKey(), subscription.customerKey(), subscription.plan())));
    }

    /**
     * Charges whose attempt was left unsettled (UNKNOWN, or REQUESTED after a crash) and whose payment has been
     * settled since, by reconciliation or the PG's callback: the period follows its payment now.
     */
    private void settleInFlight() {
        List<RenewalCharge> settled;
        do {
            settled = charges.settledInFlight(SETTLE_BATCH);
            for (RenewalCharge found : settled) {
                transaction.executeWithoutResult(tx -> charges.lock(found.subscriptionId(), found.period())
                        .filter(charge -> charge.state() == RenewalCharge.State.CHARGING)
                        .ifPresent(charge -> {
                            PaymentStatus status = payments.findById(charge.paymentId()).orElseThrow().status();
                            settle(charge, status, clock.instant());
                        }));
            }
        } while (settled.size() == SETTLE_BATCH);
    }

    private RenewalCharge.Settled settle(RenewalCharge charge, PaymentStatus status, Instant now) {
        RenewalCharge.Settled settled = charge.settle(status, now, dunning);
        if (settled == RenewalCharge.Settled.PENDING) {
            return settled;
        }
        // Settled without a charge after the member cancelled mid-attempt: never attempted again (the claim skips a
        // cancelled subscription's periods anyway; this leaves none of them looking due).
        if (charge.state() == RenewalCharge.State.DUE && subscriptions.findById(charge.subscriptionId())
                .map(s -> s.status() == Subscription.Status.CANCELED).orElse(false)) {
            charge.stopForCancel();
        }
        charges.update(charge);
        if (settled == RenewalCharge.Settled.CHARGED) {
            subscriptions.paidThrough(charge.subscriptionId(), charge.period());
        } else if (settled == RenewalCharge.Settled.DECLINED_GAVE_UP) {
            subscriptions.pastDue(charge.subscriptionId());
        }
        return settled;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
