package dev.payments.payment.application;

import dev.payments.payment.application.PaymentGateway.Admitted;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.application.PaymentGateway.Rejection;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.Verdict;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One payment attempt, for every use case that asks the PG to approve (a checkout's confirm, a renewal charge):
 * admission, TX-1, the PG call with no transaction and no connection held, TX-2 (docs/architecture.md, "How a payment
 * attempt runs"). Each step holds at most one connection, so a pool of one still serves any number of concurrent
 * attempts (field report 000's pool deadlock needed two per request). What the PG's answer means is decided by
 * {@link Payment#record}; the use case adds only its checks in TX-1 and its own writes in TX-2.
 */
public class PaymentAttempts {

    private static final Logger log = LoggerFactory.getLogger(PaymentAttempts.class);

    private final PaymentGateway gateway;
    private final Payments payments;
    private final PaymentEvents events;
    private final PaymentUnitOfWork unitOfWork;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final ObservationRegistry observations;

    public PaymentAttempts(PaymentGateway gateway, Payments payments, PaymentEvents events,
                           PaymentUnitOfWork unitOfWork, TransactionTemplate transaction, Clock clock,
                           ObservationRegistry observations) {
        this.gateway = gateway;
        this.payments = payments;
        this.events = events;
        this.unitOfWork = unitOfWork;
        this.transaction = transaction;
        this.clock = clock;
        this.observations = observations;
    }

    /** A use case's own writes in TX-2, under the payment's row lock, after the PG's answer is recorded. */
    @FunctionalInterface
    public interface Tx2<C, R> {

        /** @param verdict what the answer meant; empty when a callback or a sync settled the payment first */
        R write(C context, PaymentUnitOfWork.Locked payment, Optional<Verdict> verdict);
    }

    /** What TX-1 decided. */
    public sealed interface Start<C, R> {

        /** Charge {@code payment} (new, REQUESTED) with {@code request}; {@code context} travels to TX-2. */
        record Charge<C, R>(C context, Payment payment, ApprovalRequest request) implements Start<C, R> {
        }

        /** Charge nothing; {@code result} is the answer. Whatever TX-1 wrote commits unless it was marked rollback. */
        record Stop<C, R>(R result) implements Start<C, R> {
        }
    }

    /** How an attempt ended. */
    public sealed interface Attempt<R> {

        /** Not admitted: nothing written, no connection taken, the PG not called. */
        record Refused<R>(Rejection rejection, Duration retryAfter) implements Attempt<R> {
        }

        /** TX-1 decided not to charge. */
        record Stopped<R>(R result) implements Attempt<R> {
        }

        /** The database failed TX-1: nothing was written and the PG was not called. */
        record StartFailed<R>(RuntimeException cause) implements Attempt<R> {
        }

        /** The PG was asked and TX-2 wrote what it answered. */
        record Recorded<R>(R result) implements Attempt<R> {
        }

        /**
         * The PG was asked and TX-2 failed: the payment stays REQUESTED from TX-1 and reconciliation settles it with
         * the PG. No cancel is fired from here (a network cut would lose it).
         */
        record Unrecorded<R>(Payment payment) implements Attempt<R> {
        }
    }

    /**
     * @param lane     whose bulkhead the attempt takes
     * @param deadline the whole attempt's budget, retries and status query included
     * @param tx1      the use case's checks, in TX-1: {@link Start.Charge} a new payment (recorded REQUESTED with
     *                 {@code PaymentRequested} in the same transaction), or {@link Start.Stop} and charge nothing
     * @param tx2      the use case's own writes in TX-2
     */
    public <C, R> Attempt<R> run(Lane lane, Duration deadline, Function<TransactionStatus, Start<C, R>> tx1,
                                 Tx2<C, R> tx2) {
        Instant deadlineAt = clock.instant().plus(deadline);
        Admitted<Attempt<R>> admitted = gateway.underAdmission(lane, approver -> {
            Start<C, R> start;
            try {
                start = observe("payment.tx1", () -> transaction.execute(tx -> begin(tx1.apply(tx))));
            } catch (DataAccessException | TransactionException e) {
                // TransactionException: no connection could even be had to begin the transaction.
                return new Attempt.StartFailed<>(e);
            }
            if (start instanceof Start.Stop<C, R> stop) {
                return new Attempt.Stopped<>(stop.result());
            }
            Start.Charge<C, R> charge = (Start.Charge<C, R>) start;
            PgOutcome outcome = observe("payment.pg.approve", () -> approver.approve(charge.request(), deadlineAt));
            return record(charge, outcome, tx2);
        });
        if (admitted instanceof Admitted.Refused<Attempt<R>> refused) {
            return new Attempt.Refused<>(refused.rejection(), refused.retryAfter());
        }
        return ((Admitted.Ran<Attempt<R>>) admitted).value();
    }

    private <C, R> Start<C, R> begin(Start<C, R> start) {
        if (start instanceof Start.Charge<C, R> charge) {
            payments.insert(charge.payment());
            events.publish(charge.payment().requested());
        }
        return start;
    }

    /** TX-2: the answer, its event and what the customer is about to be told, then the use case's own writes. */
    private <C, R> Attempt<R> record(Start.Charge<C, R> charge, PgOutcome outcome, Tx2<C, R> tx2) {
        Payment payment = charge.payment();
        try {
            return observe("payment.tx2", () -> unitOfWork.locked(payment.id(), locked -> {
                Optional<Verdict> verdict = Optional.empty();
                // Not REQUESTED: a callback or a sync got here first; its state stands.
                if (locked.payment().status() == PaymentStatus.REQUESTED) {
                    Payment.Recorded recorded = locked.payment().record(outcome, clock.instant());
                    locked.append(recorded.event());
                    verdict = Optional.of(recorded.verdict());
                    logAlarming(payment, recorded.verdict(), outcome);
                }
                return new Attempt.Recorded<>(tx2.write(charge.context(), locked, verdict));
            }));
        } catch (DataAccessException | TransactionException e) {
            log.error("Recording the PG outcome {} of payment {} failed; it stays REQUESTED for reconciliation",
                    outcome, payment.id(), e);
            return new Attempt.Unrecorded<>(payment);
        }
    }

    private static void logAlarming(Payment payment, Verdict verdict, PgOutcome outcome) {
        if (verdict == Verdict.MISMATCH) {
            log.error("Payment {}: the PG answered about another amount, order or payment key ({}); recorded "
                    + "UNKNOWN, never approved", payment.id(), outcome);
        } else if (verdict == Verdict.CREDENTIALS_REJECTED) {
            log.error("Payment {}: the PG refused our credentials ({}); check pg.client.secret-key", payment.id(),
                    outcome);
        }
    }

    private <T> T observe(String name, Supplier<T> step) {
        return Observation.createNotStarted(name, observations).observe(step);
    }
}
