package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.adapter.out.pg.TossPgClient.ConfirmAnswer;
import dev.payments.payment.adapter.out.pg.TossPgClient.PgPayment;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.RecoveryCallsBusyException;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgRefusal;
import dev.payments.payment.domain.PgCancel;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The approval chain, outermost first: Bulkhead -> CircuitBreaker -> Retry -> reachability breaker -> HTTP timeouts
 * (docs/resilience.md). The approval breaker sits outside the retry, so three failed attempts count as one failure
 * (001: reversed, it opened three times too early); the reachability breaker inside it sees every attempt, so a PG
 * that refuses or fails everything is known within milliseconds and no request waits out a backoff to try it again.
 * Bulkhead and breaker are taken in {@link #underAdmission}, before the caller's work touches the database. Status
 * query and cancel are money-recovery paths: never behind the breaker (000), but in a bulkhead of their own: they run
 * on web threads with retries, and a hung PG must not hold more of them than that.
 */
public class ResilientPaymentGateway implements PaymentGateway {

    private static final Logger log = LoggerFactory.getLogger(ResilientPaymentGateway.class);

    private final TossPgClient client;
    private final PgClientProperties properties;
    private final Bulkhead bulkhead;
    private final Bulkhead recoveryBulkhead;
    private final Bulkhead renewalBulkhead;
    private final CircuitBreaker breaker;
    private final CircuitBreaker reachability;
    private final PgDownSignal pgDown = new PgDownSignal();
    private final Retry approveRetry;
    private final Retry queryRetry;
    private final Retry cancelRetry;
    private final Retry refundRetry;
    private final Clock clock;
    private final Timer confirmLatency;
    private final Timer queryLatency;
    private final Timer cancelLatency;
    private final Map<Rejection, Counter> admissionRejections;
    private final Map<Rejection, Counter> renewalRejections;
    private final Counter recoveryRejected;

    /**
     * @param bulkhead         approvals only, taken at admission
     * @param recoveryBulkhead status queries and cancels (sync, callback, refunds, compensations), no wait
     * @param renewalBulkhead  renewal charges (billing keys): bounds a renewal run's PG concurrency apart from live
     *                         approvals
     * @param reachability     each confirm attempt inside the retry: refused connections and 5xx are its failures
     */
    public ResilientPaymentGateway(TossPgClient client, PgClientProperties properties, Bulkhead bulkhead,
                                   Bulkhead recoveryBulkhead, Bulkhead renewalBulkhead, CircuitBreaker breaker,
                                   CircuitBreaker reachability, Retry approveRetry, Retry queryRetry,
                                   Retry cancelRetry, Retry refundRetry, Clock clock, MeterRegistry meters) {
        this.client = client;
        this.properties = properties;
        this.bulkhead = bulkhead;
        this.recoveryBulkhead = recoveryBulkhead;
        this.renewalBulkhead = renewalBulkhead;
        this.breaker = breaker;
        this.reachability = reachability;
        this.approveRetry = approveRetry;
        this.queryRetry = queryRetry;
        this.cancelRetry = cancelRetry;
        this.refundRetry = refundRetry;
        this.clock = clock;
        this.confirmLatency = pgTimer(meters, "confirm");
        this.queryLatency = pgTimer(meters, "query");
        this.cancelLatency = pgTimer(meters, "cancel");
        // Every reason exists from start-up, so a rate over them has a sample before the first rejection (000).
        this.admissionRejections = rejections(meters, "payment.admission.rejected", "Approvals refused before any work");
        this.renewalRejections = rejections(meters, "renewal.admission.rejected",
                "Renewal charges refused before any work");
        this.recoveryRejected = Counter.builder("pg.recovery.rejected")
                .description("Status queries and cancels not sent: every recovery slot was busy").register(meters);
        breaker.getEventPublisher().onStateTransition(event ->
                log.warn("PG approval breaker {}", event.getStateTransition()));
        reachability.getEventPublisher().onStateTransition(event -> {
            log.warn("PG reachability breaker {}", event.getStateTransition());
            pgDown.transitioned();
        });
        // Each confirm attempt as the reachability breaker counted it, at DEBUG: how long the attempts before an
        // opening took and which of them were counted (docs/resilience.md, "How fast it opens").
        reachability.getEventPublisher()
                .onError(event -> log.debug("PG confirm attempt failed after {} ms: {}",
                        event.getElapsedDuration().toMillis(), event.getThrowable().toString()))
                .onIgnoredError(event -> log.debug("PG confirm attempt ended after {} ms, not counted: {}",
                        event.getElapsedDuration().toMillis(), event.getThrowable().toString()));
    }

    @Override
    public <T> Admitted<T> underAdmission(Lane lane, Function<Approver, T> work) {
        Admission admission = lane == Lane.RENEWAL
                ? admit(renewalBulkhead, renewalRejections)
                : admit(bulkhead, admissionRejections);
        if (admission.rejection() != null) {
            return new Admitted.Refused<>(admission.rejection(), admission.retryAfter());
        }
        GrantedPermit permit = admission.permit();
        try {
            return new Admitted.Ran<>(work.apply(permit));
        } finally {
            permit.close();
        }
    }

    private Admission admit(Bulkhead slots, Map<Rejection, Counter> rejected) {
        if (!slots.tryAcquirePermission()) {
            return refused(rejected, Rejection.BULKHEAD_FULL, Duration.ofSeconds(1));
        }
        if (!breaker.tryAcquirePermission()) {
            slots.onComplete();
            // Half-open: the PG is being tried again and its few trial calls are taken; "open" would mislead a
            // renewal run into stopping just as the PG recovers.
            return breaker.getState() == CircuitBreaker.State.HALF_OPEN
                    ? refused(rejected, Rejection.BREAKER_TRIAL, Duration.ofMillis(200))
                    : refused(rejected, Rejection.BREAKER_OPEN, openWait(breaker));
        }
        if (reachability.getState() == CircuitBreaker.State.OPEN) {
            // The PG refused or failed every recent attempt: an approval admitted now would write its payment in TX-1
            // only to be refused at its first attempt. Refused here instead, before the database, and one failure for
            // the approval breaker at once, so it opens on a dead PG in the time its window takes to fill at the
            // arrival rate rather than after TX-1's queue for the pool (pg-down drill, docs/resilience.md).
            breaker.onError(0, TimeUnit.NANOSECONDS,
                    new PgUnreachableException("Not admitted: the PG refused or failed every recent attempt", null));
            slots.onComplete();
            return refused(rejected, Rejection.PG_UNREACHABLE, openWait(reachability));
        }
        return new Admission(new GrantedPermit(slots), null, null);
    }

    private static Admission refused(Map<Rejection, Counter> rejected, Rejection rejection, Duration retryAfter) {
        rejected.get(rejection).increment();
        return new Admission(null, rejection, retryAfter);
    }

    /** A permit, or why there is none. */
    private record Admission(GrantedPermit permit, Rejection rejection, Duration retryAfter) {
    }

    /**
     * The simulator's Toss-like billing API names a charge's payment after its orderId (docs/pg-simulator.md, "Billing
     * keys"), so the status query after a lost answer can ask by key like any confirm's.
     */
    @Override
    public String billingChargeKey(OrderId orderId) {
        return "bill_" + orderId;
    }

    /** The PG call an approval makes: a checkout's confirm, or a charge of the member's billing key. */
    private Function<Duration, ConfirmAnswer> call(ApprovalRequest request) {
        BillingCharge billing = request.billing();
        if (billing == null) {
            return timeout -> client.confirm(request.paymentKey(), request.orderId().toString(), request.amount(),
                    request.idempotencyKey(), timeout);
        }
        return timeout -> client.chargeBillingKey(billing.billingKey(), billing.customerKey(),
                request.orderId().toString(), request.amount(), billing.orderName(), request.idempotencyKey(), timeout);
    }

    /** One confirm-shaped call (a confirm, a billing charge) through retry, timeouts and the status query. */
    private PgOutcome approve(GrantedPermit permit, ApprovalRequest request, Instant deadline) {
        Function<Duration, ConfirmAnswer> call = call(request);
        long started = System.nanoTime();
        AtomicBoolean reachedPg = new AtomicBoolean();
        ConfirmAnswer answer;
        try {
            answer = attempts(deadline, call, reachedPg);
        } catch (PgCallException e) {
            boolean mayHaveReached = reachedPg.get() || e.mayHaveReachedPg();
            if (!mayHaveReached) {
                permit.failed(started, e);
                log.warn("Confirm of {} never reached the PG: {}", request.idempotencyKey(), e.getMessage());
                return new PgOutcome.NotReached();
            }
            return askAfter(permit, request, deadline, started, e, doubt(e));
        } catch (Exception e) {
            // Anything else is our bug, but the confirm may have gone out: settle by asking, never by guessing.
            log.error("Unexpected error confirming payment {}", request.idempotencyKey(), e);
            return askAfter(permit, request, deadline, started, e, PgOutcome.ANSWER_LOST);
        }
        if (answer instanceof ConfirmAnswer.Accepted accepted) {
            permit.succeeded(started);
            return new PgOutcome.Answered(toStatus(accepted.payment()));
        }
        ConfirmAnswer.Refused refused = (ConfirmAnswer.Refused) answer;
        PgRefusal refusal = new PgRefusal(refused.status(), refused.error().code(), refused.error().message());
        PgRefusal.Kind kind = refusal.kind();
        if (kind == PgRefusal.Kind.DECLINE) {
            // The PG is healthy and said no (card limit, invalid card): a success for the breaker (001's pitfall).
            permit.succeeded(started);
            return new PgOutcome.Refused(refusal);
        }
        if (kind == PgRefusal.Kind.CREDENTIALS && !reachedPg.get()) {
            // Our key is wrong or rotated: every approval will fail the same way, so the breaker must see it.
            permit.failed(started, new PgRefusedException(refusal));
            log.error("The PG refused our credentials for {}: {} {}", request.idempotencyKey(), refusal.code(),
                    refusal.message());
            return new PgOutcome.Refused(refusal);
        }
        // 409 still in progress, 408, 429, a refusal we do not know, or credentials refused on a retry after an
        // attempt that may have reached the PG: the answer says nothing certain about the money, so ask.
        return askAfter(permit, request, deadline, started, new PgRefusedException(refusal), refusal.asReason());
    }

    /**
     * The retry's attempts, each through the reachability breaker (docs/resilience.md, "Opening on a PG that is down").
     * The retry's backoff is waited here rather than inside Resilience4j so that it ends the moment the reachability
     * breaker opens: a request waiting to try a dead PG again then ends at once, and the approval breaker sees its
     * failure within milliseconds of the fault instead of after the 0.5 s + 1 s backoff.
     */
    private ConfirmAnswer attempts(Instant deadline, Function<Duration, ConfirmAnswer> call,
                                   AtomicBoolean reachedPg) {
        Retry.AsyncContext<ConfirmAnswer> retry = approveRetry.asyncContext();
        while (true) {
            try {
                ConfirmAnswer answer = attempt(deadline, call);
                retry.onComplete();
                return answer;
            } catch (PgCallException e) {
                reachedPg.compareAndSet(false, e.mayHaveReachedPg());
                long backoffMillis = retry.onError(e);
                if (backoffMillis < 0) {
                    throw e;
                }
                boolean waited;
                try {
                    waited = pgDown.awaitUnlessDown(backoffMillis);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                if (!waited) {
                    throw new PgUnreachableException("Not retried: the PG refused or failed every recent attempt", e);
                }
            }
        }
    }

    private ConfirmAnswer attempt(Instant deadline, Function<Duration, ConfirmAnswer> call) {
        try {
            return reachability.executeCallable(() -> confirmLatency.recordCallable(() -> call.apply(
                    within(deadline, properties.confirmReadTimeout()))));
        } catch (CallNotPermittedException open) {
            throw new PgUnreachableException("Not sent: the PG refused or failed every recent attempt", open);
        } catch (PgCallException e) {
            throw e;
        } catch (Exception e) {
            throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        }
    }

    /**
     * The confirm may have been acted on and gave no usable answer: one status query by our payment key (its own
     * timeout, never breaker-blocked). A delayed call the query shows DONE is not a breaker failure (002).
     */
    private PgOutcome askAfter(GrantedPermit permit, ApprovalRequest request, Instant deadline, long started,
                               Exception failure, String reason) {
        Optional<PgPayment> found;
        try {
            found = queryLatency.recordCallable(() -> client.findByPaymentKey(request.paymentKey(),
                    within(deadline, properties.queryTimeout())));
        } catch (Exception queryFailure) {
            permit.failed(started, failure);
            log.warn("Confirm of {} gave no usable answer ({}) and the status query failed too ({}): UNKNOWN",
                    request.idempotencyKey(), failure.getMessage(), queryFailure.toString());
            return new PgOutcome.Unknown(reason);
        }
        PgStatus status = found.map(ResilientPaymentGateway::toStatus).orElseGet(PgStatus::notFound);
        if (status.state() == PgState.DONE) {
            permit.succeeded(started);
        } else {
            permit.failed(started, failure);
            log.warn("Confirm of {} gave no usable answer ({}); the PG says {}", request.idempotencyKey(),
                    failure.getMessage(), status.state());
        }
        return new PgOutcome.Asked(status, reason);
    }

    @Override
    public PgStatus status(String paymentKey) {
        Optional<PgPayment> found = recovery("status query", () -> queryRetry.executeSupplier(() -> queryLatency.record(
                () -> client.findByPaymentKey(paymentKey, properties.queryTimeout()))));
        return found.map(ResilientPaymentGateway::toStatus).orElseGet(PgStatus::notFound);
    }

    @Override
    public PgStatus cancel(String paymentKey, String reason) {
        PgPayment payment = recovery("cancel", () -> cancelRetry.executeSupplier(() -> cancelLatency.record(
                () -> client.cancel(paymentKey, reason, properties.cancelTimeout()))));
        return toStatus(payment);
    }

    /**
     * A partial cancel in one recovery slot. Only an attempt that never reached the PG is tried again (the refund
     * retry's connect-failure rule); a timeout, a reset or a 5xx may have been booked, so the PG is asked once for its
     * cancels instead and the outcome is decided from them (docs/refunds.md).
     */
    @Override
    public RefundOutcome refund(String paymentKey, RefundId refundId, long amount, String cancelReason) {
        TossPgClient.RefundAnswer answer;
        try {
            answer = recovery("refund", () -> refundRetry.executeSupplier(() -> cancelLatency.record(() -> client.refund(
                    paymentKey, amount, cancelReason, refundId.toString(), properties.cancelTimeout()))));
        } catch (RecoveryCallsBusyException e) {
            return new RefundOutcome.NotSent("PG_RECOVERY_BUSY");
        } catch (PgConnectException e) {
            log.warn("Refund {} never reached the PG: {}", refundId, e.getMessage());
            return new RefundOutcome.NotSent(PgOutcome.CONNECT_FAILED);
        } catch (RuntimeException e) {
            String reason = e instanceof PgCallException failure ? refundDoubt(failure) : PgOutcome.ANSWER_LOST;
            log.warn("Refund {} gave no usable answer ({}); asking the PG for its cancels", refundId, e.toString());
            PgStatus asked;
            try {
                asked = status(paymentKey);
            } catch (RuntimeException queryFailed) {
                log.warn("Refund {}: the status query failed too ({})", refundId, queryFailed.toString());
                asked = null;
            }
            return new RefundOutcome.Lost(reason, asked);
        }
        if (answer instanceof TossPgClient.RefundAnswer.Accepted accepted) {
            return new RefundOutcome.Answered(toStatus(accepted.payment()));
        }
        TossPgClient.RefundAnswer.Refused refused = (TossPgClient.RefundAnswer.Refused) answer;
        return new RefundOutcome.Refused(refused.error().code() == null ? "HTTP_" + refused.status()
                : refused.error().code(), refused.error().message());
    }

    private static String refundDoubt(PgCallException failure) {
        if (failure instanceof PgServerErrorException) {
            return "PG_SERVER_ERROR";
        }
        return doubt(failure);
    }

    /** One slot of the recovery bulkhead for the whole call, retries included; none free: not sent at all. */
    private <T> T recovery(String operation, Supplier<T> call) {
        try {
            return recoveryBulkhead.executeSupplier(call);
        } catch (BulkheadFullException busy) {
            recoveryRejected.increment();
            throw new RecoveryCallsBusyException(operation, Duration.ofSeconds(5));
        }
    }

    private static String doubt(PgCallException failure) {
        return failure instanceof PgAnswerLostException lost && lost.timedOut()
                ? PgOutcome.READ_TIMEOUT : PgOutcome.ANSWER_LOST;
    }

    private static PgStatus toStatus(PgPayment payment) {
        return new PgStatus(PgState.parse(payment.status()), payment.paymentKey(), payment.orderId(),
                payment.totalAmount(), payment.lastTransactionKey(),
                payment.approvedAt() == null ? null : payment.approvedAt().toInstant(),
                payment.cancels().stream().map(c -> new PgCancel(c.transactionKey(),
                        c.cancelAmount() == null ? 0 : c.cancelAmount(), c.cancelReason(),
                        c.canceledAt() == null ? null : c.canceledAt().toInstant())).toList());
    }

    /** The per-call timeout, cut short so the whole request never outlives its deadline. */
    private Duration within(Instant deadline, Duration callTimeout) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.compareTo(Duration.ofMillis(50)) < 0) {
            throw new PgDeadlineException("The request's deadline has passed");
        }
        return left.compareTo(callTimeout) < 0 ? left : callTimeout;
    }

    /** How long the breaker stays OPEN before its trials: when trying again makes sense. */
    private static Duration openWait(CircuitBreaker circuitBreaker) {
        return Duration.ofMillis(circuitBreaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
    }

    private static Map<Rejection, Counter> rejections(MeterRegistry meters, String name, String description) {
        Map<Rejection, Counter> counters = new EnumMap<>(Rejection.class);
        for (Rejection rejection : Rejection.values()) {
            counters.put(rejection, Counter.builder(name).description(description).tag("reason", rejection.label())
                    .register(meters));
        }
        return counters;
    }

    private static Timer pgTimer(MeterRegistry meters, String operation) {
        return Timer.builder("pg.client.latency").description("PG call latency, per attempt")
                .tag("operation", operation).publishPercentiles(0.5, 0.95, 0.99).register(meters);
    }

    /** Wakes the requests waiting out a retry backoff when the reachability breaker leaves CLOSED. */
    private final class PgDownSignal {

        private final ReentrantLock lock = new ReentrantLock();
        private final Condition transitioned = lock.newCondition();

        void transitioned() {
            lock.lock();
            try {
                transitioned.signalAll();
            } finally {
                lock.unlock();
            }
        }

        /** @return true after the full wait with the PG still considered reachable; false as soon as it is not */
        boolean awaitUnlessDown(long millis) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
            lock.lock();
            try {
                while (reachability.getState() == CircuitBreaker.State.CLOSED) {
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        return true;
                    }
                    transitioned.awaitNanos(left);
                }
                return false;
            } finally {
                lock.unlock();
            }
        }
    }

    /** One admission: a slot of its bulkhead and one breaker permission, each given back exactly once. */
    private final class GrantedPermit implements Approver {

        private final AtomicReference<String> breakerOutcome = new AtomicReference<>();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final AtomicBoolean used = new AtomicBoolean();
        private final Bulkhead slots;

        GrantedPermit(Bulkhead slots) {
            this.slots = slots;
        }

        void succeeded(long startedNanos) {
            if (breakerOutcome.compareAndSet(null, "success")) {
                breaker.onSuccess(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
            }
        }

        void failed(long startedNanos, Throwable failure) {
            if (breakerOutcome.compareAndSet(null, "failure")) {
                breaker.onError(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS, failure);
            }
        }

        @Override
        public PgOutcome approve(ApprovalRequest request, Instant deadline) {
            if (!used.compareAndSet(false, true)) {
                throw new IllegalStateException("One admission approves once");
            }
            return ResilientPaymentGateway.this.approve(this, request, deadline);
        }

        /** Gives the breaker's permission back if it was never used, and the bulkhead slot. */
        void close() {
            if (closed.compareAndSet(false, true)) {
                if (breakerOutcome.compareAndSet(null, "released")) {
                    breaker.releasePermission();
                }
                slots.onComplete();
            }
        }
    }
}
