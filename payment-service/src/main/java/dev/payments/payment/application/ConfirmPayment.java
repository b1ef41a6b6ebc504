package dev.payments.payment.application;

import dev.payments.contracts.PaymentPurpose;
import dev.payments.payment.application.ApprovalMetrics.Outcome;
import dev.payments.payment.application.ConfirmResult.Refusal;
import dev.payments.payment.application.ConfirmResult.Refused;
import dev.payments.payment.application.IdempotencyKeys.IdempotencyRecord;
import dev.payments.payment.application.PaymentGateway.Admission;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.PgOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The approval request path (docs/architecture.md, "Request path"): admission, TX-1 (idempotency claim, the member's
 * rate limit, the order, the payment), the PG call with no transaction and no connection held, TX-2. Each step holds
 * at most one connection, so a pool of one still serves any number of concurrent approvals (field report 000's pool
 * deadlock needed two per request).
 */
public class ConfirmPayment {

    private static final Logger log = LoggerFactory.getLogger(ConfirmPayment.class);

    private final MemberRateLimit rateLimit;
    private final IdempotencyKeys idempotency;
    private final PaymentGateway gateway;
    private final PayableOrders orders;
    private final Payments payments;
    private final PaymentEvents events;
    private final TransactionTemplate transaction;
    private final ApprovalMetrics metrics;
    private final Clock clock;
    private final Duration deadline;
    private final ObservationRegistry observations;

    public ConfirmPayment(MemberRateLimit rateLimit, IdempotencyKeys idempotency, PaymentGateway gateway,
                          PayableOrders orders, Payments payments, PaymentEvents events,
                          TransactionTemplate transaction, ApprovalMetrics metrics, Clock clock, Duration deadline,
                          ObservationRegistry observations) {
        this.rateLimit = rateLimit;
        this.idempotency = idempotency;
        this.gateway = gateway;
        this.orders = orders;
        this.payments = payments;
        this.events = events;
        this.transaction = transaction;
        this.metrics = metrics;
        this.clock = clock;
        this.deadline = deadline;
        this.observations = observations;
    }

    public ConfirmResult confirm(ConfirmCommand command) {
        Instant deadlineAt = clock.instant().plus(deadline);
        // Admission before the database, even before the idempotency claim and the member's rate bucket (both in
        // TX-1): with the breaker open a refused request must cost no connection and write nothing (000 saw the
        // pool's pending queue jump to 29 when 50 rejections wrote their states at once). The price: a repeat of an
        // answered request is refused too while the breaker is open, and gets its stored answer once it closes.
        Admission admission = gateway.admit();
        if (admission instanceof Admission.Rejected rejected) {
            metrics.record(Outcome.PG_UNAVAILABLE);
            return new Refused(Refusal.PG_UNAVAILABLE, "The PG is not taking approvals (" + rejected.reason() + ")",
                    rejected.retryAfter());
        }
        try (Admission.Granted granted = (Admission.Granted) admission) {
            return confirmAdmitted(command, granted, deadlineAt);
        }
    }

    private ConfirmResult confirmAdmitted(ConfirmCommand command, Admission.Granted admission, Instant deadlineAt) {
        Payment payment;
        try {
            Object started = Observation.createNotStarted("payment.tx1", observations).observe(() ->
                    transaction.execute(status -> start(command, status)));
            if (started instanceof Replay replay) {
                admission.releaseUnused();
                return replay(command, replay.record());
            }
            if (started instanceof Refused refused) {
                admission.releaseUnused();
                metrics.record(refused.refusal() == Refusal.RATE_LIMITED ? Outcome.RATE_LIMITED : Outcome.REJECTED);
                return refused;
            }
            payment = (Payment) started;
        } catch (DuplicateKeyException secondLivePayment) {
            // Another key started a payment for this order at the same moment; the partial unique index kept it
            // to one. TX-1 rolled back whole: the key is free and the member's token given back.
            admission.releaseUnused();
            metrics.record(Outcome.REJECTED);
            return new Refused(Refusal.PAYMENT_IN_PROGRESS,
                    "Order " + command.orderId() + " already has a payment that is approved or being confirmed");
        } catch (DataAccessException | TransactionException e) {
            // TransactionException: no connection could even be had to begin the transaction.
            admission.releaseUnused();
            return databaseUnavailable(e);
        } catch (RuntimeException e) {
            admission.releaseUnused();
            throw e;
        }

        PgOutcome outcome = Observation.createNotStarted("payment.pg.approve", observations).observe(() ->
                gateway.approve(admission, new ApprovalRequest(payment.paymentKey(), payment.orderId(),
                        payment.money().amount(), payment.id().toString()), deadlineAt));

        try {
            Recorded recorded = Observation.createNotStarted("payment.tx2", observations).observe(() ->
                    transaction.execute(status -> settle(command, payment.id(), outcome)));
            metrics.record(outcomeLabel(recorded, outcome));
            if (recorded.verdict() == Payment.Verdict.MISMATCH) {
                log.error("Payment {}: the PG answered about another amount, order or payment key ({}); recorded "
                        + "UNKNOWN, never approved", payment.id(), outcome);
            } else if (recorded.verdict() == Payment.Verdict.CREDENTIALS_REJECTED) {
                log.error("Payment {}: the PG refused our credentials ({}); check pg.client.secret-key", payment.id(),
                        outcome);
            }
            return new ConfirmResult.Answered(recorded.receipt(), false);
        } catch (DataAccessException | TransactionException e) {
            // The PG may have taken the money and we could not write it down. The payment stays REQUESTED from TX-1
            // and reconciliation settles it with the PG; no cancel is fired from here (a network cut would lose it).
            log.error("Recording the PG outcome {} of payment {} failed; it stays REQUESTED for reconciliation",
                    outcome, payment.id(), e);
            metrics.record(Outcome.DB_FAILED);
            return new ConfirmResult.Answered(PaymentReceipt.of(payment, CustomerNotice.PENDING, "PENDING",
                    "We are confirming the payment with the PG"), false);
        }
    }

    /** Nothing was written and the PG was not called: safe to try again. Counted with the other database failures. */
    private ConfirmResult databaseUnavailable(RuntimeException e) {
        log.warn("Database failed before the PG call; nothing happened", e);
        metrics.record(Outcome.DB_FAILED);
        return new Refused(Refusal.DB_UNAVAILABLE, "The payment database is not available; nothing was charged",
                Duration.ofSeconds(1));
    }

    /**
     * TX-1: claim the key, take the member's token, check the order, record REQUESTED and {@code PaymentRequested}.
     * One transaction, one commit: the key is kept with the payment or not at all, and the token is spent by every
     * confirm that gets as far as its order.
     *
     * @return the {@link Payment} started, a {@link Replay} of the request that holds the key, or a {@link Refused}
     */
    private Object start(ConfirmCommand command, TransactionStatus status) {
        // The key first: a concurrent duplicate waits on this row and then finds it taken (-> its stored answer),
        // instead of finding the first request's live payment (-> a misleading conflict). Before the member's token:
        // a client asking again for the answer to a request it already made is not another approval, so it takes
        // nothing from the member's allowance.
        PaymentId paymentId = PaymentId.newId();
        if (!idempotency.claim(command.memberId(), command.idempotencyKey(), command.requestHash(), paymentId)) {
            status.setRollbackOnly();
            return new Replay(idempotency.find(command.memberId(), command.idempotencyKey()).orElseThrow(() ->
                    new IllegalStateException("Idempotency key " + command.idempotencyKey() + " was taken and is gone")));
        }
        Optional<Duration> limited = rateLimit.tryAcquire(command.memberId());
        if (limited.isPresent()) {
            // Nothing taken, and the key goes with the rollback: the member may send the same request once allowed.
            status.setRollbackOnly();
            return new Refused(Refusal.RATE_LIMITED, "At most the configured approvals per member per minute",
                    limited.get());
        }
        Optional<PayableOrder> order = orders.lock(command.orderId());
        if (order.isEmpty() || !order.get().memberId().equals(command.memberId())) {
            return refuse(command, Refusal.ORDER_NOT_FOUND, "No order " + command.orderId() + " for this member");
        }
        PayableOrder payable = order.get();
        if (payable.status() == PayableOrder.Status.PAID) {
            return refuse(command, Refusal.ORDER_ALREADY_PAID, "Order " + command.orderId() + " is already paid");
        }
        if (!payable.isPayable()) {
            return refuse(command, Refusal.ORDER_NOT_PAYABLE, "Order " + command.orderId() + " is " + payable.status());
        }
        if (payable.money().amount() != command.amount()) {
            return refuse(command, Refusal.AMOUNT_MISMATCH, "The order's amount is " + payable.money().amount()
                    + ", the request says " + command.amount());
        }
        if (payments.hasLivePayment(command.orderId())) {
            return refuse(command, Refusal.PAYMENT_IN_PROGRESS,
                    "Order " + command.orderId() + " already has a payment that is approved or being confirmed");
        }
        if (payments.paymentKeyInUse(command.paymentKey())) {
            return refuse(command, Refusal.PAYMENT_KEY_USED, "Payment key " + command.paymentKey()
                    + " already belongs to a payment the PG may have seen; a new attempt needs a new checkout");
        }
        Payment payment = Payment.request(paymentId, command.orderId(), command.memberId(), payable.money(),
                command.paymentKey(), PaymentPurpose.ORDER, clock.instant());
        payments.insert(payment);
        events.publish(payment.requested());
        return payment;
    }

    /**
     * A confirm refused on its order: the key is given back, so a refused request does not burn it, and TX-1 commits
     * the member's token, so a refused confirm counts against the allowance like any other
     * (docs/decisions/rate-limit.md).
     */
    private Refused refuse(ConfirmCommand command, Refusal refusal, String detail) {
        idempotency.release(command.memberId(), command.idempotencyKey());
        return new Refused(refusal, detail);
    }

    /** TX-1 found the key taken: the request that holds it decides the answer. */
    private record Replay(IdempotencyRecord record) {
    }

    /** TX-2: record the outcome, its event, and what the customer is about to be told. */
    private Recorded settle(ConfirmCommand command, PaymentId id, PgOutcome outcome) {
        Payment payment = payments.lockById(id).orElseThrow();
        Payment.Recorded recorded;
        if (payment.status() != PaymentStatus.REQUESTED) {
            // A webhook or a sync got here first; the customer hears the state that is now recorded.
            recorded = null;
            if (payment.customerNotice() == CustomerNotice.NONE) {
                payment.told(receiptFor(payment).result());
                payments.update(payment);
            }
        } else {
            recorded = payment.record(outcome, clock.instant());
            events.publish(recorded.event());
            payments.update(payment);
        }
        PaymentReceipt receipt = receiptFor(payment);
        idempotency.complete(command.memberId(), command.idempotencyKey(), receipt);
        return new Recorded(receipt, recorded == null ? null : recorded.verdict());
    }

    /** TX-2's result: the answer, and what the outcome meant (null when another path settled the payment first). */
    private record Recorded(PaymentReceipt receipt, Payment.Verdict verdict) {
    }

    private ConfirmResult replay(ConfirmCommand command, IdempotencyRecord record) {
        if (!record.requestHash().equals(command.requestHash())) {
            metrics.record(Outcome.REJECTED);
            return new Refused(Refusal.IDEMPOTENCY_KEY_REUSED,
                    "Idempotency key " + command.idempotencyKey() + " was used with a different request");
        }
        metrics.record(Outcome.REPLAYED);
        Optional<PaymentReceipt> stored = record.receipt();
        if (stored.isPresent() && stored.get().result() != CustomerNotice.PENDING
                && stored.get().result() != CustomerNotice.NONE) {
            return new ConfirmResult.Answered(stored.get(), true);
        }
        // No final answer stored: still in flight, answered PENDING, or the first request's final write failed. Once
        // the payment is settled (reconciliation, a callback), the repeat gets the settled state.
        Optional<Payment> settled = payments.findById(record.paymentId()).filter(p -> !p.status().isUnsettled());
        if (settled.isPresent()) {
            return new ConfirmResult.Answered(receiptFor(settled.get()), true);
        }
        if (stored.isPresent()) {
            return new ConfirmResult.Answered(stored.get(), true);
        }
        return payments.findById(record.paymentId())
                .filter(payment -> !payment.status().isUnsettled())
                .<ConfirmResult>map(payment -> new ConfirmResult.Answered(receiptFor(payment), true))
                .orElseGet(() -> new ConfirmResult.InFlight(
                        PaymentReceipt.inFlight(record.paymentId().value(), command.orderId().value())));
    }

    static PaymentReceipt receiptFor(Payment payment) {
        return switch (payment.status()) {
            case APPROVED -> PaymentReceipt.of(payment, CustomerNotice.APPROVED, "APPROVED", "Payment approved");
            case DECLINED -> PaymentReceipt.of(payment, CustomerNotice.DECLINED, payment.failureCode(),
                    payment.failureMessage());
            case FAILED, CANCEL_OWED, CANCELED -> PaymentReceipt.of(payment, CustomerNotice.FAILED, payment.failureCode(),
                    "The payment did not go through; nothing was charged");
            case REQUESTED, UNKNOWN -> PaymentReceipt.of(payment, CustomerNotice.PENDING, "PENDING",
                    "We are confirming the payment with the PG");
        };
    }

    private static Outcome outcomeLabel(Recorded recorded, PgOutcome outcome) {
        Payment.Verdict verdict = recorded.verdict();
        if (verdict == null) {
            // A callback or a sync settled the payment first: count what the customer was answered.
            return switch (recorded.receipt().result()) {
                case APPROVED -> Outcome.APPROVED;
                case DECLINED -> Outcome.DECLINED;
                case FAILED -> Outcome.PG_FAILED;
                case PENDING, NONE -> Outcome.UNKNOWN;
            };
        }
        return switch (verdict) {
            case APPROVED -> Outcome.APPROVED;
            case DECLINED -> Outcome.DECLINED;
            case NOTHING_CHARGED -> Outcome.PG_FAILED;
            case CREDENTIALS_REJECTED -> Outcome.PG_AUTH_FAILED;
            case MISMATCH -> Outcome.PG_MISMATCH;
            case PROCESSING_ASYNC -> Outcome.ASYNC_ACCEPTED;
            case UNDECIDED -> timedOut(outcome) ? Outcome.PG_TIMEOUT : Outcome.UNKNOWN;
        };
    }

    private static boolean timedOut(PgOutcome outcome) {
        return outcome instanceof PgOutcome.Unknown unknown && PgOutcome.READ_TIMEOUT.equals(unknown.reason())
                || outcome instanceof PgOutcome.Asked asked && PgOutcome.READ_TIMEOUT.equals(asked.reason());
    }
}
