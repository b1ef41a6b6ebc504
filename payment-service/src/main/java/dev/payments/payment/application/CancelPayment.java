package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.SyncAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A member takes a payment back (docs/decisions/payment-cancel.md).
 *
 * <ul>
 *   <li>APPROVED: refunded at the PG, outside any transaction; only a CANCELED answer from the PG is written
 *       (APPROVED -> CANCELED, the order follows to CANCELED). A cancel that fails changes nothing and says so; the
 *       PG's cancel is idempotent, so the member or an operator simply asks again.</li>
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

    /** {@link Payment#cancel} reason of a member's refund; order-service shows it as the order's status reason. */
    public static final String REFUNDED = "REFUNDED";

    private final Payments payments;
    private final PaymentGateway gateway;
    private final PaymentEvents events;
    private final SyncPayment syncPayment;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public CancelPayment(Payments payments, PaymentGateway gateway, PaymentEvents events,
                         SyncPayment syncPayment, TransactionTemplate transaction, Clock clock) {
        this.payments = payments;
        this.gateway = gateway;
        this.events = events;
        this.syncPayment = syncPayment;
        this.transaction = transaction;
        this.clock = clock;
    }

    /** What came of a cancel request. */
    public sealed interface Result {

        /** The payment is final: CANCELED (refunded or compensated) or FAILED (nothing was charged). */
        record Done(Payment payment) implements Result {
        }

        /** The member was told they will not be charged; the PG has not settled yet, reconciliation finishes it. */
        record Pending(Payment payment) implements Result {
        }

        /** Not cancelable now or at all; nothing changed. */
        record Refused(Refusal refusal, String detail, Duration retryAfter) implements Result {
        }

        /**
         * The PG did not confirm a cancel of the approved charge (it refused, failed, or its answer was lost); nothing
         * changed here, asking again is safe.
         */
        record PgFailed(Payment payment, String detail) implements Result {
        }

        /** No such payment for this member. */
        record NotFound() implements Result {
        }

        /** The PG was not asked: every recovery slot is busy (a slow or hung PG). Nothing changed; ask again later. */
        record Busy(Duration retryAfter) implements Result {
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
        Optional<Payment> found = payments.findById(id).filter(payment -> payment.memberId().equals(member));
        if (found.isEmpty()) {
            return new Result.NotFound();
        }
        Payment payment = found.get();
        return switch (payment.status()) {
            case APPROVED -> refund(payment, reason);
            case UNKNOWN -> giveUp(id, member, reason);
            case CANCELED -> new Result.Done(payment);
            case REQUESTED -> new Result.Refused(Refusal.PAYMENT_IN_FLIGHT,
                    "Payment " + id + " is still being confirmed with the PG; ask again when it has an answer",
                    Duration.ofSeconds(5));
            case DECLINED, FAILED -> new Result.Refused(Refusal.PAYMENT_NOT_CANCELABLE,
                    "Payment " + id + " is " + payment.status() + ": nothing was charged", null);
        };
    }

    private Result refund(Payment payment, String reason) {
        PgStatus answer;
        try {
            answer = gateway.cancel(payment.paymentKey(), "REFUND: " + reason);
        } catch (RecoveryCallsBusyException busy) {
            log.warn("Refund of payment {} not sent: {}", payment.id(), busy.getMessage());
            return new Result.Busy(busy.retryAfter());
        } catch (RuntimeException e) {
            log.warn("Refund of payment {} failed at the PG; the payment stays APPROVED", payment.id(), e);
            return new Result.PgFailed(payment, e.getMessage());
        }
        Refunded refunded = transaction.execute(tx -> {
            Payment locked = payments.lockById(payment.id()).orElseThrow();
            Payment.Settlement settlement = locked.canceledAtPg(answer, REFUNDED, clock.instant());
            settlement.event().ifPresent(event -> {
                events.publish(event);
                payments.update(locked);
            });
            return new Refunded(locked, settlement.action());
        });
        if (refunded.action() == SyncAction.RETRY_LATER) {
            log.warn("Refund of payment {}: the PG answered {} instead of CANCELED; the payment stays APPROVED",
                    payment.id(), answer.state());
            return new Result.PgFailed(refunded.payment(), "the PG answered " + answer.state() + " instead of CANCELED");
        }
        log.info("Payment {} refunded at the PG; now {}", payment.id(), refunded.payment().status());
        return new Result.Done(refunded.payment());
    }

    private record Refunded(Payment payment, SyncAction action) {
    }

    private Result giveUp(PaymentId id, MemberId member, String reason) {
        Payment told = transaction.execute(tx -> {
            Payment locked = payments.lockById(id).orElseThrow();
            if (locked.status() == PaymentStatus.UNKNOWN && locked.customerGaveUp()) {
                payments.update(locked);
            }
            return locked;
        });
        if (told.status() != PaymentStatus.UNKNOWN) {
            // Settled between the read and the lock: answer for the state it is in now (a refund if approved).
            return cancel(id, member, reason);
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
