package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.adapter.out.pg.TossPgClient.PgAnswer;
import dev.payments.payment.adapter.out.pg.TossPgClient.PgPayment;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.RecoveryCallsBusyException;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The approval chain, outermost first: Bulkhead -> CircuitBreaker -> Retry -> reachability breaker -> HTTP timeouts
 * (docs/resilience.md). The approval breaker sits outside the retry, so three failed attempts count as one failure
 * (001: reversed, it opened three times too early); the reachability breaker inside it sees every attempt, so a PG
 * that refuses or fails everything is known within milliseconds and no request waits out a backoff to try it again.
 * Bulkhead and breaker are taken in {@link #underAdmission} ({@link ApprovalAdmission}), before the caller's work
 * touches the database; the inner links run in {@link ApprovalCall}. Status query and cancel are money-recovery paths:
 * never behind the breaker (000), but in a bulkhead of their own: they run on web threads with retries, and a hung PG
 * must not hold more of them than that.
 */
public class ResilientPaymentGateway implements PaymentGateway {

    private static final Logger log = LoggerFactory.getLogger(ResilientPaymentGateway.class);

    private final TossPgClient client;
    private final PgClientProperties properties;
    private final Bulkhead recoveryBulkhead;
    private final ApprovalAdmission admission;
    private final ApprovalCall approval;
    private final Retry queryRetry;
    private final Retry cancelRetry;
    private final Retry refundRetry;
    private final Timer queryLatency;
    private final Timer cancelLatency;
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
        this.recoveryBulkhead = recoveryBulkhead;
        this.admission = new ApprovalAdmission(bulkhead, renewalBulkhead, breaker, reachability, meters);
        this.queryRetry = queryRetry;
        this.cancelRetry = cancelRetry;
        this.refundRetry = refundRetry;
        this.queryLatency = pgTimer(meters, "query");
        this.approval = new ApprovalCall(client, properties, reachability, approveRetry, clock,
                pgTimer(meters, "confirm"), queryLatency);
        this.cancelLatency = pgTimer(meters, "cancel");
        this.recoveryRejected = Counter.builder("pg.recovery.rejected")
                .description("Status queries and cancels not sent: every recovery slot was busy").register(meters);
        breaker.getEventPublisher().onStateTransition(event ->
                log.warn("PG approval breaker {}", event.getStateTransition()));
        reachability.getEventPublisher().onStateTransition(event ->
                log.warn("PG reachability breaker {}", event.getStateTransition()));
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
        ApprovalAdmission.Admission admitted = admission.admit(lane);
        if (admitted.rejection() != null) {
            return new Admitted.Refused<>(admitted.rejection(), admitted.retryAfter());
        }
        ApprovalAdmission.Permit permit = admitted.permit();
        try {
            return new Admitted.Ran<>(work.apply((request, deadline) -> {
                permit.use();
                return approval.approve(permit, request, deadline);
            }));
        } finally {
            permit.close();
        }
    }

    /**
     * The simulator's Toss-like billing API names a charge's payment after its orderId (docs/pg-simulator.md, "Billing
     * keys"), so the status query after a lost answer can ask by key like any confirm's.
     */
    @Override
    public String billingChargeKey(OrderId orderId) {
        return "bill_" + orderId;
    }

    @Override
    public PgStatus status(String paymentKey) {
        Optional<PgPayment> found = recovery("status query", () -> queryRetry.executeSupplier(() -> queryLatency.record(
                () -> client.findByPaymentKey(paymentKey, properties.queryTimeout()))));
        return found.map(PgPayment::toStatus).orElseGet(PgStatus::notFound);
    }

    @Override
    public PgStatus cancel(String paymentKey, String reason) {
        PgPayment payment = recovery("cancel", () -> cancelRetry.executeSupplier(() -> cancelLatency.record(
                () -> client.cancel(paymentKey, reason, properties.cancelTimeout()))));
        return payment.toStatus();
    }

    /**
     * A partial cancel in one recovery slot. Only an attempt that never reached the PG is tried again (the refund
     * retry's connect-failure rule); a timeout, a reset or a 5xx may have been booked, so the PG is asked once for its
     * cancels instead and the outcome is decided from them (docs/refunds.md).
     */
    @Override
    public RefundOutcome refund(String paymentKey, RefundId refundId, long amount, String cancelReason) {
        PgAnswer answer;
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
        if (answer instanceof PgAnswer.Accepted accepted) {
            return new RefundOutcome.Answered(accepted.payment().toStatus());
        }
        PgAnswer.Refused refused = (PgAnswer.Refused) answer;
        return new RefundOutcome.Refused(refused.error().code() == null ? "HTTP_" + refused.status()
                : refused.error().code(), refused.error().message());
    }

    private static String refundDoubt(PgCallException failure) {
        if (failure instanceof PgServerErrorException) {
            return "PG_SERVER_ERROR";
        }
        return ApprovalCall.doubt(failure);
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

    private static Timer pgTimer(MeterRegistry meters, String operation) {
        return Timer.builder("pg.client.latency").description("PG call latency, per attempt")
                .tag("operation", operation).publishPercentiles(0.5, 0.95, 0.99).register(meters);
    }
}
