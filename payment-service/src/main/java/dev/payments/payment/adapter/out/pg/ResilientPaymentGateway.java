package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.adapter.out.pg.TossPgClient.ConfirmAnswer;
import dev.payments.payment.adapter.out.pg.TossPgClient.PgPayment;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.RecoveryCallsBusyException;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgRefusal;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import io.github.resilience4j.bulkhead.Bulkhead;
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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The approval chain, outermost first: Bulkhead -> CircuitBreaker -> Retry -> HTTP timeouts (docs/resilience.md).
 * The breaker sits outside the retry, so three failed attempts count as one failure (001: reversed, it opened three
 * times too early). Bulkhead and breaker are taken in {@link #admit()}, before the caller touches the database.
 * Status query and cancel are money-recovery paths: never behind the breaker (000), but in a bulkhead of their own
 * (issue 11, sequence 8): they run on web threads with retries, and a hung PG must not hold more of them than that.
 */
public class ResilientPaymentGateway implements PaymentGateway {

    private static final Logger log = LoggerFactory.getLogger(ResilientPaymentGateway.class);

    private final TossPgClient client;
    private final PgClientProperties properties;
    private final Bulkhead bulkhead;
    private final Bulkhead recoveryBulkhead;
    private final Bulkhead renewalBulkhead;
    private final CircuitBreaker breaker;
    private final Retry approveRetry;
    private final Retry queryRetry;
    private final Retry cancelRetry;
    private final Clock clock;
    private final Timer confirmLatency;
    private final Timer queryLatency;
    private final Timer cancelLatency;
    private final Counter bulkheadFull;
    private final Counter breakerOpen;
    private final Counter renewalBulkheadFull;
    private final Counter renewalBreakerOpen;
    private final Counter recoveryRejected;

    /**
     * @param bulkhead         approvals only, taken at admission
     * @param recoveryBulkhead status queries and cancels (sync, callback, refunds, compensations), no wait
     * @param renewalBulkhead  renewal charges (billing keys): bounds a renewal run's PG concurrency apart from live
     *                         approvals
     */
    public ResilientPaymentGateway(TossPgClient client, PgClientProperties properties, Bulkhead bulkhead,
                                   Bulkhead recoveryBulkhead, Bulkhead renewalBulkhead, CircuitBreaker breaker,
                                   Retry approveRetry, Retry queryRetry, Retry cancelRetry, Clock clock,
                                   MeterRegistry meters) {
        this.client = client;
        this.properties = properties;
        this.bulkhead = bulkhead;
        this.recoveryBulkhead = recoveryBulkhead;
        this.renewalBulkhead = renewalBulkhead;
        this.breaker = breaker;
        this.approveRetry = approveRetry;
        this.queryRetry = queryRetry;
        this.cancelRetry = cancelRetry;
        this.clock = clock;
        this.confirmLatency = pgTimer(meters, "confirm");
        this.queryLatency = pgTimer(meters, "query");
        this.cancelLatency = pgTimer(meters, "cancel");
        // Both reasons exist from start-up, so a rate over them has a sample before the first rejection (000).
        this.bulkheadFull = admissionRejected(meters, "bulkhead_full");
        this.breakerOpen = admissionRejected(meters, "breaker_open");
        this.renewalBulkheadFull = renewalRejected(meters, "bulkhead_full");
        this.renewalBreakerOpen = renewalRejected(meters, "breaker_open");
        this.recoveryRejected = Counter.builder("pg.recovery.rejected")
                .description("Status queries and cancels not sent: every recovery slot was busy").register(meters);
        breaker.getEventPublisher().onStateTransition(event ->
                log.warn("PG approval breaker {}", event.getStateTransition()));
    }

    @Override
    public Admission admit() {
        return admit(bulkhead, bulkheadFull, breakerOpen);
    }

    @Override
    public Admission admitRenewal() {
        return admit(renewalBulkhead, renewalBulkheadFull, renewalBreakerOpen);
    }

    private Admission admit(Bulkhead slots, Counter full, Counter open) {
        if (!slots.tryAcquirePermission()) {
            full.increment();
            return new Admission.Rejected("BULKHEAD_FULL", Duration.ofSeconds(1));
        }
        if (!breaker.tryAcquirePermission()) {
            slots.onComplete();
            open.increment();
            // Half-open: the PG is being tried again and its few trial calls are taken; "open" would mislead a
            // renewal run into stopping just as the PG recovers.
            return breaker.getState() == CircuitBreaker.State.HALF_OPEN
                    ? new Admission.Rejected("BREAKER_TRIAL", Duration.ofMillis(200))
                    : new Admission.Rejected("BREAKER_OPEN", retryAfterOpenBreaker());
        }
        return new GrantedPermit(slots);
    }

    @Override
    public PgOutcome approve(Admission.Granted admission, ApprovalRequest request, Instant deadline) {
        return confirm(admission, request, deadline, timeout -> client.confirm(request.paymentKey(),
                request.orderId().toString(), request.amount(), request.idempotencyKey(), timeout));
    }

    @Override
    public PgOutcome charge(Admission.Granted admission, ApprovalRequest request, BillingCharge billing,
                            Instant deadline) {
        return confirm(admission, request, deadline, timeout -> client.chargeBillingKey(billing.billingKey(),
                billing.customerKey(), request.orderId().toString(), request.amount(), billing.orderName(),
                request.idempotencyKey(), timeout));
    }

    /**
     * The simulator's Toss-like billing API names a charge's payment after its orderId (docs/pg-simulator.md, "Billing
     * keys"), so the status query after a lost answer can ask by key like any confirm's.
     */
    @Override
    public String billingChargeKey(dev.payments.payment.domain.OrderId orderId) {
        return "bill_" + orderId;
    }

    /** One confirm-shaped call (a confirm, a billing charge) through retry, timeouts and the status query. */
    private PgOutcome confirm(Admission.Granted admission, ApprovalRequest request, Instant deadline,
                              java.util.function.Function<Duration, ConfirmAnswer> call) {
        GrantedPermit permit = (GrantedPermit) admission;
        long started = System.nanoTime();
        AtomicBoolean reachedPg = new AtomicBoolean();
        ConfirmAnswer answer;
        try {
            answer = approveRetry.executeCallable(() -> {
                try {
                    return confirmLatency.recordCallable(() -> call.apply(
                            within(deadline, properties.confirmReadTimeout())));
                } catch (PgCallException e) {
                    reachedPg.compareAndSet(false, e.mayHaveReachedPg());
                    throw e;
                }
            });
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

    /** One slot of the recovery bulkhead for the whole call, retries included; none free: not sent at all. */
    private <T> T recovery(String operation, java.util.function.Supplier<T> call) {
        if (!recoveryBulkhead.tryAcquirePermission()) {
            recoveryRejected.increment();
            throw new RecoveryCallsBusyException(operation, Duration.ofSeconds(5));
        }
        try {
            return call.get();
        } finally {
            recoveryBulkhead.onComplete();
        }
    }

    private static String doubt(PgCallException failure) {
        return failure instanceof PgAnswerLostException lost && lost.timedOut()
                ? PgOutcome.READ_TIMEOUT : PgOutcome.ANSWER_LOST;
    }

    private static PgStatus toStatus(PgPayment payment) {
        return new PgStatus(PgState.parse(payment.status()), payment.paymentKey(), payment.orderId(),
                payment.totalAmount(), payment.lastTransactionKey(),
                payment.approvedAt() == null ? null : payment.approvedAt().toInstant());
    }

    /** The per-call timeout, cut short so the whole request never outlives its deadline. */
    private Duration within(Instant deadline, Duration callTimeout) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.compareTo(Duration.ofMillis(50)) < 0) {
            throw new PgDeadlineException("The request's deadline has passed");
        }
        return left.compareTo(callTimeout) < 0 ? left : callTimeout;
    }

    /** The breaker's open wait: the earliest moment a trial call may be let through. */
    private Duration retryAfterOpenBreaker() {
        return Duration.ofMillis(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
    }

    private static Counter admissionRejected(MeterRegistry meters, String reason) {
        return Counter.builder("payment.admission.rejected").description("Approvals refused before any work")
                .tag("reason", reason).register(meters);
    }

    private static Counter renewalRejected(MeterRegistry meters, String reason) {
        return Counter.builder("renewal.admission.rejected").description("Renewal charges refused before any work")
                .tag("reason", reason).register(meters);
    }

    private static Timer pgTimer(MeterRegistry meters, String operation) {
        return Timer.builder("pg.client.latency").description("PG call latency, per attempt")
                .tag("operation", operation).publishPercentiles(0.5, 0.95, 0.99).register(meters);
    }

    /** One admission: a slot of its bulkhead and one breaker permission, each given back exactly once. */
    private final class GrantedPermit implements Admission.Granted {

        private final AtomicReference<String> breakerOutcome = new AtomicReference<>();
        private final AtomicBoolean closed = new AtomicBoolean();
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
        public void releaseUnused() {
            if (breakerOutcome.compareAndSet(null, "released")) {
                breaker.releasePermission();
            }
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                releaseUnused();
                slots.onComplete();
            }
        }
    }
}
