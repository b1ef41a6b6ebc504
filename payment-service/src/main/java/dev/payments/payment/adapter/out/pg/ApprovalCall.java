package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.adapter.out.pg.TossPgClient.PgAnswer;
import dev.payments.payment.adapter.out.pg.TossPgClient.PgPayment;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.application.PaymentGateway.BillingCharge;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgRefusal;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The inner links of the approval chain for one admitted approval: Retry -> reachability breaker -> HTTP timeouts,
 * then one status query when the PG gave no usable answer. Returns what the PG said, typed, and reports the outcome to
 * the admission's approval breaker; what the answer means for the payment is decided in {@code Payment#record}.
 */
final class ApprovalCall {

    private static final Logger log = LoggerFactory.getLogger(ApprovalCall.class);

    private final TossPgClient client;
    private final PgClientProperties properties;
    private final CircuitBreaker reachability;
    private final PgDownSignal pgDown;
    private final Retry retry;
    private final Clock clock;
    private final Timer confirmLatency;
    private final Timer queryLatency;

    ApprovalCall(TossPgClient client, PgClientProperties properties, CircuitBreaker reachability, Retry retry,
                 Clock clock, Timer confirmLatency, Timer queryLatency) {
        this.client = client;
        this.properties = properties;
        this.reachability = reachability;
        this.pgDown = new PgDownSignal(reachability);
        this.retry = retry;
        this.clock = clock;
        this.confirmLatency = confirmLatency;
        this.queryLatency = queryLatency;
    }

    /** The PG call an approval makes: a checkout's confirm, or a charge of the member's billing key. */
    private Function<Duration, PgAnswer> call(ApprovalRequest request) {
        BillingCharge billing = request.billing();
        if (billing == null) {
            return timeout -> client.confirm(request.paymentKey(), request.orderId().toString(), request.amount(),
                    request.idempotencyKey(), timeout);
        }
        return timeout -> client.chargeBillingKey(billing.billingKey(), billing.customerKey(),
                request.orderId().toString(), request.amount(), billing.orderName(), request.idempotencyKey(), timeout);
    }

    /** One confirm-shaped call (a confirm, a billing charge) through retry, timeouts and the status query. */
    PgOutcome approve(ApprovalAdmission.Permit permit, ApprovalRequest request, Instant deadline) {
        Function<Duration, PgAnswer> call = call(request);
        long started = System.nanoTime();
        AtomicBoolean reachedPg = new AtomicBoolean();
        PgAnswer answer;
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
        if (answer instanceof PgAnswer.Accepted accepted) {
            permit.succeeded(started);
            return new PgOutcome.Answered(accepted.payment().toStatus());
        }
        PgAnswer.Refused refused = (PgAnswer.Refused) answer;
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
     * The retry's attempts, each through the reachability breaker (docs/resilience.md, "Opening on a PG that is down"),
     * with Resilience4j's Retry deciding which failures are retried and how long to back off; the backoff itself is
     * waited in {@link PgDownSignal}, so it ends the moment the reachability breaker opens.
     */
    private PgAnswer attempts(Instant deadline, Function<Duration, PgAnswer> call, AtomicBoolean reachedPg) {
        Retry.AsyncContext<PgAnswer> attempts = retry.asyncContext();
        while (true) {
            try {
                PgAnswer answer = attempt(deadline, call);
                attempts.onComplete();
                return answer;
            } catch (PgCallException e) {
                reachedPg.compareAndSet(false, e.mayHaveReachedPg());
                long backoffMillis = attempts.onError(e);
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

    private PgAnswer attempt(Instant deadline, Function<Duration, PgAnswer> call) {
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
    private PgOutcome askAfter(ApprovalAdmission.Permit permit, ApprovalRequest request, Instant deadline, long started,
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
        PgStatus status = found.map(PgPayment::toStatus).orElseGet(PgStatus::notFound);
        if (status.state() == PgState.DONE) {
            permit.succeeded(started);
        } else {
            permit.failed(started, failure);
            log.warn("Confirm of {} gave no usable answer ({}); the PG says {}", request.idempotencyKey(),
                    failure.getMessage(), status.state());
        }
        return new PgOutcome.Asked(status, reason);
    }

    static String doubt(PgCallException failure) {
        return failure instanceof PgAnswerLostException lost && lost.timedOut()
                ? PgOutcome.READ_TIMEOUT : PgOutcome.ANSWER_LOST;
    }

    /** The per-call timeout, cut short so the whole request never outlives its deadline. */
    private Duration within(Instant deadline, Duration callTimeout) {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.compareTo(Duration.ofMillis(50)) < 0) {
            throw new PgDeadlineException("The request's deadline has passed");
        }
        return left.compareTo(callTimeout) < 0 ? left : callTimeout;
    }

    /**
     * A retry backoff that ends the moment the reachability breaker leaves CLOSED: a request waiting to try a dead PG
     * again ends at once, and the approval breaker sees its failure within milliseconds of the fault instead of after
     * the 0.5 s + 1 s backoff. Resilience4j's synchronous Retry sleeps through its backoff (one static sleep function
     * for every Retry), so it cannot do this.
     */
    private static final class PgDownSignal {

        private final ReentrantLock lock = new ReentrantLock();
        private final Condition transitioned = lock.newCondition();
        private final CircuitBreaker reachability;

        PgDownSignal(CircuitBreaker reachability) {
            this.reachability = reachability;
            reachability.getEventPublisher().onStateTransition(event -> wake());
        }

        private void wake() {
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
}
