package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.application.PaymentGateway.Rejection;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The outer two links of the approval chain, taken before the caller's work touches the database: a slot of the
 * lane's bulkhead, then the approval breaker's permission (docs/resilience.md). Not Resilience4j's decorators: the
 * breaker's outcome is known only after the status query that may follow the call, and the permit must outlive TX-1.
 */
final class ApprovalAdmission {

    private final Bulkhead approvals;
    private final Bulkhead renewals;
    private final CircuitBreaker breaker;
    private final CircuitBreaker reachability;
    private final Map<Rejection, Counter> approvalRejections;
    private final Map<Rejection, Counter> renewalRejections;

    /**
     * @param approvals    a checkout's confirms
     * @param renewals     renewal charges (billing keys): bounds a renewal run's PG concurrency apart from live approvals
     * @param reachability each confirm attempt inside the retry; while it is open nothing is admitted
     */
    ApprovalAdmission(Bulkhead approvals, Bulkhead renewals, CircuitBreaker breaker, CircuitBreaker reachability,
                      MeterRegistry meters) {
        this.approvals = approvals;
        this.renewals = renewals;
        this.breaker = breaker;
        this.reachability = reachability;
        // Every reason exists from start-up, so a rate over them has a sample before the first rejection (000).
        this.approvalRejections = rejections(meters, "payment.admission.rejected", "Approvals refused before any work");
        this.renewalRejections = rejections(meters, "renewal.admission.rejected",
                "Renewal charges refused before any work");
    }

    /** A permit, or why there is none. */
    record Admission(Permit permit, Rejection rejection, Duration retryAfter) {
    }

    Admission admit(Lane lane) {
        Bulkhead slots = lane == Lane.RENEWAL ? renewals : approvals;
        Map<Rejection, Counter> rejected = lane == Lane.RENEWAL ? renewalRejections : approvalRejections;
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
        return new Admission(new Permit(slots), null, null);
    }

    private static Admission refused(Map<Rejection, Counter> rejected, Rejection rejection, Duration retryAfter) {
        rejected.get(rejection).increment();
        return new Admission(null, rejection, retryAfter);
    }

    /** How long a breaker stays OPEN before its trials: when trying again makes sense. */
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

    /** One admission: a slot of its bulkhead and one breaker permission, each given back exactly once. */
    final class Permit {

        private final AtomicReference<String> breakerOutcome = new AtomicReference<>();
        private final AtomicBoolean closed = new AtomicBoolean();
        private final AtomicBoolean used = new AtomicBoolean();
        private final Bulkhead slots;

        private Permit(Bulkhead slots) {
            this.slots = slots;
        }

        /** @throws IllegalStateException on a second use: one admission approves once */
        void use() {
            if (!used.compareAndSet(false, true)) {
                throw new IllegalStateException("One admission approves once");
            }
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
