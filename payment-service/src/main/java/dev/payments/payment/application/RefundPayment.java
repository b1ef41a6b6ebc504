package dev.payments.payment.application;

import dev.payments.payment.domain.Decision;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.Refund;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundOutcome;
import dev.payments.payment.domain.RefundStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.Optional;

/**
 * Gives part (or all) of an approved payment back, in the approval's shape: TX-1 claims the Idempotency-Key, locks the
 * payment, reserves the amount (the database refuses more than is refundable, refunds in flight included) and writes
 * the refund REQUESTED with {@code RefundRequested}; the PG's partial cancel is called with no transaction and no
 * connection held; TX-2 writes what it answered (SUCCEEDED / FAILED / UNKNOWN) with its event. A lost answer is
 * UNKNOWN and stays reserved; {@link SyncPayment} settles it from the PG's cancels, never by sending it again.
 */
public class RefundPayment {

    private static final Logger log = LoggerFactory.getLogger(RefundPayment.class);

    private final Payments payments;
    private final PaymentUnitOfWork unitOfWork;
    private final Refunds refunds;
    private final IdempotencyKeys keys;
    private final PaymentGateway gateway;
    private final PaymentEvents events;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public RefundPayment(Payments payments, PaymentUnitOfWork unitOfWork, Refunds refunds, IdempotencyKeys keys,
                         PaymentGateway gateway, PaymentEvents events, TransactionTemplate transaction, Clock clock) {
        this.payments = payments;
        this.unitOfWork = unitOfWork;
        this.refunds = refunds;
        this.keys = keys;
        this.gateway = gateway;
        this.events = events;
        this.transaction = transaction;
        this.clock = clock;
    }

    /** What came of a refund request. */
    public sealed interface Result {

        /**
         * The refund as it is now: SUCCEEDED or FAILED (final), REQUESTED or UNKNOWN (the PG's answer is not known; it
         * is settled from the PG's books and the amount stays reserved until then).
         */
        record Answered(Refund refund, Refunds.RefundAmounts amounts) implements Result {
        }

        /** Nothing changed. */
        record Refused(Refusal refusal, String detail, Refunds.RefundAmounts amounts) implements Result {
        }

        /** No such payment (for a member: none of theirs). */
        record NotFound() implements Result {
        }
    }

    public enum Refusal {
        /** Only an APPROVED payment can be refunded in part (a cancelled one has nothing left). */
        PAYMENT_NOT_REFUNDABLE,
        /** More than is left: approved minus refunded minus refunds in flight. */
        REFUND_EXCEEDS_REFUNDABLE,
        /** The same key for another payment or amount. */
        IDEMPOTENCY_KEY_REUSED
    }

    private sealed interface Start {
        record Started(Refund refund, String paymentKey) implements Start {
        }

        record Replay(RefundId refundId) implements Start {
        }

        record Stop(Result result) implements Start {
        }
    }

    public Result refund(RefundCommand command) {
        Optional<Payment> found = payments.findById(command.paymentId())
                .filter(p -> command.requester() == Refund.Requester.OPERATOR
                        || p.memberId().equals(new MemberId(command.subject())));
        if (found.isEmpty()) {
            return new Result.NotFound();
        }
        MemberId scope = new MemberId(command.keyScope());
        RefundId id = RefundId.newId();
        Start start = transaction.execute(tx -> reserve(command, scope, id));
        if (start instanceof Start.Stop stop) {
            return stop.result();
        }
        if (start instanceof Start.Replay replay) {
            // The same request again (a retry during UNKNOWN included): the refund as it is now, never a second cancel.
            Refund refund = refunds.findById(replay.refundId()).orElseThrow();
            return new Result.Answered(refund, refunds.amounts(refund.paymentId()));
        }
        Start.Started started = (Start.Started) start;
        Refund refund = started.refund();
        log.info("Refund {} of {} from payment {} requested by {} {}", refund.id(), refund.money(), refund.paymentId(),
                command.requester(), command.subject());
        RefundOutcome outcome = gateway.refund(started.paymentKey(), refund.id(), refund.money().amount(),
                refund.pgCancelReason());
        try {
            return unitOfWork.locked(refund.paymentId(), locked -> recordOutcome(refund, outcome));
        } catch (DataAccessException e) {
            // The PG may have given the money back: the refund stays REQUESTED (reserved) and the settle finds it.
            log.error("Refund {}: writing the PG's answer failed; it stays REQUESTED and is settled from the PG's books",
                    refund.id(), e);
            // The amounts cannot be read either; this refund's own amount is still reserved, which is all that is known.
            return new Result.Answered(refund, new Refunds.RefundAmounts(refund.paymentAmount(), 0,
                    refund.money().amount()));
        }
    }

    private Start reserve(RefundCommand command, MemberId scope, RefundId id) {
        if (!keys.claimRefund(scope, command.idempotencyKey(), command.requestHash(), command.paymentId(), id)) {
            Optional<IdempotencyKeys.RefundKey> held = keys.findRefund(scope, command.idempotencyKey());
            if (held.isEmpty() || !held.get().requestHash().equals(command.requestHash())) {
                return new Start.Stop(new Result.Refused(Refusal.IDEMPOTENCY_KEY_REUSED, "Idempotency-Key "
                        + command.idempotencyKey() + " was used for another request", null));
            }
            return new Start.Replay(held.get().refundId());
        }
        return unitOfWork.locked(command.paymentId(), locked -> reserve(command, scope, id, locked.payment()));
    }

    /** Under the payment's row lock: the reservation against what is left, and the refund REQUESTED. */
    private Start reserve(RefundCommand command, MemberId scope, RefundId id, Payment payment) {
        if (payment.status() != PaymentStatus.APPROVED) {
            keys.release(scope, command.idempotencyKey());
            return new Start.Stop(new Result.Refused(Refusal.PAYMENT_NOT_REFUNDABLE, "Payment " + payment.id() + " is "
                    + payment.status() + "; only an approved payment can be refunded", refunds.amounts(payment.id())));
        }
        if (!refunds.reserve(payment.id(), command.amount())) {
            keys.release(scope, command.idempotencyKey());
            Refunds.RefundAmounts amounts = refunds.amounts(payment.id());
            return new Start.Stop(new Result.Refused(Refusal.REFUND_EXCEEDS_REFUNDABLE, "A refund of "
                    + command.amount() + " exceeds the " + amounts.refundable() + " left to refund of payment "
                    + payment.id() + " (refunds in flight included)", amounts));
        }
        Refund refund = Refund.request(id, payment, command.amount(), command.reason(), command.requester(),
                command.subject(), clock.instant());
        refunds.insert(refund);
        events.publish(refund.requested());
        return new Start.Started(refund, payment.paymentKey());
    }

    /** TX-2, under the payment's row lock, so a settle that ran meanwhile is seen and never undone. */
    private Result recordOutcome(Refund requested, RefundOutcome outcome) {
        Refund refund = refunds.findById(requested.id()).orElseThrow();
        if (refund.status() == RefundStatus.REQUESTED) {
            Refunds.RefundAmounts before = refunds.amounts(refund.paymentId());
            Decision<Refund.Action> change = refund.record(outcome, before.refunded(), clock.instant());
            apply(refunds, events, refund, RefundStatus.REQUESTED, change);
        }
        if (refund.status() == RefundStatus.UNKNOWN) {
            log.warn("Refund {}: the PG's answer was lost ({}); reserved until the PG's cancels settle it",
                    refund.id(), refund.failureCode());
        }
        return new Result.Answered(refund, refunds.amounts(refund.paymentId()));
    }

    /** Writes a refund's change: its row, the payment's amounts and its event, in the caller's transaction. */
    static void apply(Refunds refunds, PaymentEvents events, Refund refund, RefundStatus before, Decision<Refund.Action> change) {
        change.event().ifPresent(event -> {
            refunds.book(refund.paymentId(), refund.money().amount(), before, refund.status());
            refunds.update(refund);
            events.publish(event);
        });
    }
}
