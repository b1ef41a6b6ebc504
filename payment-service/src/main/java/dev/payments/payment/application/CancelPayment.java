package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * A member takes a payment back, or an operator does it for them (docs/decisions/payment-cancel.md).
 *
 * <ul>
 *   <li>APPROVED: the refund is recorded first as a cancel we owe (APPROVED -> CANCEL_OWED, {@code PaymentCancelOwed},
 *       in its own transaction), then sent to the PG once, outside any transaction. The PG's CANCELED is written
 *       (CANCEL_OWED -> CANCELED, the order follows to CANCELED); anything else leaves it owed, and reconciliation's
 *       settler retries it until the PG confirms or an incident is opened (docs/decisions/cancel-owed.md).</li>
 *   <li>CANCEL_OWED: the owed cancel is sent again now (idempotent at the PG).</li>
 *   <li>UNKNOWN: the member gives up waiting. They are told "you will not be charged", and that is recorded as the
 *       customer having been told FAILED, in its own short transaction, before anything else. From then on whoever
 *       settles the payment (this request at once if the PG answers, else reconciliation) cancels a charge the PG
 *       made (compensation) instead of keeping it.</li>
 *   <li>REQUESTED: refused for a few seconds: the confirm is still being answered, and an answer written after
 *       "you will not be charged" would contradict it.</li>
 *   <li>CANCELED: the same answer again. DECLINED / FAILED: nothing was charged, nothing to cancel.</li>
 * </ul>
 */
public class CancelPayment {

    private static final Logger log = LoggerFactory.getLogger(CancelPayment.class);

    private final Payments payments;
    private final PaymentUnitOfWork unitOfWork;
    private final SyncPayment syncPayment;
    private final Clock clock;

    public CancelPayment(Payments payments, PaymentUnitOfWork unitOfWork, SyncPayment syncPayment, Clock clock) {
        this.payments = payments;
        this.unitOfWork = unitOfWork;
        this.syncPayment = syncPayment;
        this.clock = clock;
    }

    /** What came of a cancel request. */
    public sealed interface Result {

        /** The payment is final: CANCELED (refunded or compensated) or FAILED (nothing was charged). */
        record Done(Payment payment) implements Result {
        }

        /**
         * Accepted, not final yet: a refund owed and not yet confirmed by the PG (CANCEL_OWED), or a give-up on a
         * payment the PG has not settled (UNKNOWN, the member told they will not be charged). Reconciliation finishes
         * it.
         */
        record Pending(Payment payment) implements Result {
        }

        /** Not cancelable now or at all; nothing changed. */
        record Refused(Refusal refusal, String detail, Duration retryAfter) implements Result {
        }

        /** No such payment for this member. */
        record NotFound() implements Result {
        }

    }

    public enum Refusal {
        /** The confirm is still being answered. */
        PAYMENT_IN_FLIGHT,
        /** DECLINED or FAILED: nothing was charged. */
        PAYMENT_NOT_CANCELABLE
    }

    /** @param reason the member's words, passed to the PG as the cancel reason */
    public Result cancel(PaymentId id, MemberId member, String reason) {
        return payments.findById(id).filter(payment -> payment.memberId().equals(member))
                .map(payment -> cancel(payment, "refund requested by the member: " + reason))
                .orElseGet(Result.NotFound::new);
    }

    /**
     * An operator takes the whole payment back on the customer's behalf (scope {@code payments:refund}): the same
     * rules as the member's own cancel, for any member's payment. Who and why go to the PG's cancel reason and, with
     * the answer, to the operator audit trail.
     *
     * @param operator the operator's token subject
     * @param reason   the operator's required reason
     */
    public Result cancelForCustomer(PaymentId id, String operator, String reason) {
        return payments.findById(id)
                .map(payment -> cancel(payment, "refund by operator " + operator + ": " + reason))
                .orElseGet(Result.NotFound::new);
    }

    private Result cancel(Payment payment, String pgReason) {
        PaymentId id = payment.id();
        return switch (payment.status()) {
            case APPROVED -> refund(payment, pgReason);
            case CANCEL_OWED -> sendOwed(payment, pgReason);
            case UNKNOWN -> giveUp(id, pgReason);
            case CANCELED -> new Result.Done(payment);
            case REQUESTED -> new Result.Refused(Refusal.PAYMENT_IN_FLIGHT,
                    "Payment " + id + " is still being confirmed with the PG; ask again when it has an answer",
                    Duration.ofSeconds(5));
            case DECLINED, FAILED -> new Result.Refused(Refusal.PAYMENT_NOT_CANCELABLE,
                    "Payment " + id + " is " + payment.status() + ": nothing was charged", null);
        };
    }

    private Result refund(Payment payment, String reason) {
        Payment owed = unitOfWork.locked(payment.id(), locked -> {
            if (locked.payment().status() == PaymentStatus.APPROVED) {
                locked.append(locked.payment().refundRequested(clock.instant()));
            }
            return locked.payment();
        });
        if (owed.status() != PaymentStatus.CANCEL_OWED) {
            // A sync recorded a cancel by the PG between our read and our lock: answer for the state it is in now.
            return new Result.Done(owed);
        }
        log.info("Payment {}: refund requested, a cancel at the PG is owed", payment.id());
        return sendOwed(owed, reason);
    }

    /**
     * One attempt now; whatever it ends in, the cancel stays owed until the PG confirms it.
     *
     * @param reason who asked and why, as the PG's cancel reason
     */
    private Result sendOwed(Payment owed, String reason) {
        try {
            SyncPayment.SyncResult result = syncPayment.sendOwedCancel(owed, reason);
            return new Result.Done(result.payment());
        } catch (PgSyncException e) {
            log.warn("Payment {}: the PG did not confirm the cancel now ({}); it stays owed and reconciliation retries it",
                    owed.id(), e.getMessage());
            return new Result.Pending(payments.findById(owed.id()).orElse(owed));
        }
    }

    private Result giveUp(PaymentId id, String reason) {
        Payment told = unitOfWork.locked(id, locked -> {
            if (locked.payment().status() == PaymentStatus.UNKNOWN && locked.payment().customerGaveUp()) {
                locked.changed();
            }
            return locked.payment();
        });
        if (told.status() != PaymentStatus.UNKNOWN) {
            // Settled between the read and the lock: answer for the state it is in now (a refund if approved).
            return cancel(told, reason);
        }
        log.info("The customer gave up on payment {} while its outcome is unknown; a charge the PG made will be "
                + "cancelled", id);
        try {
            SyncPayment.SyncResult result = syncPayment.sync(id).orElseThrow();
            if (!result.payment().status().isUnsettled()) {
                return new Result.Done(result.payment());
            }
            log.info("Payment {}: the PG has not decided yet ({}); reconciliation will finish it", id, result.pgState());
            return new Result.Pending(result.payment());
        } catch (PgSyncException e) {
            log.warn("Payment {}: settling at once failed ({}); reconciliation will finish it", id, e.getMessage());
            return new Result.Pending(told);
        }
    }
}
