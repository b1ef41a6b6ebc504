package dev.payments.payment.application;

import dev.payments.payment.application.renewal.RenewalAttempts;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.Decision;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.Refund;
import dev.payments.payment.domain.RefundStatus;
import dev.payments.payment.domain.SettleCircumstances;
import dev.payments.payment.domain.SyncAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Settles a payment with what the PG says (operator sync, reconciliation, the PG's callback): asks the PG by our
 * payment key, outside any transaction, and lets {@link Payment#settleWith} decide under the row lock. Reads the
 * current state first, so running it twice changes nothing the second time (field report 002). A charge the customer
 * must not keep is cancelled at the PG here, outside any transaction, and only the PG's CANCELED is written.
 */
public class SyncPayment {

    private static final Logger log = LoggerFactory.getLogger(SyncPayment.class);

    private final Payments payments;
    private final Refunds refunds;
    private final PayableOrders orders;
    private final RenewalAttempts renewals;
    private final PaymentGateway gateway;
    private final PaymentEvents events;
    private final PaymentUnitOfWork unitOfWork;
    private final Clock clock;
    private final Duration notFoundIsFinalAfter;

    /**
     * @param notFoundIsFinalAfter a payment older than this that the PG has never seen will never be booked: the
     *                             confirm did not arrive (FAILED, nothing charged)
     */
    public SyncPayment(Payments payments, PayableOrders orders, RenewalAttempts renewals, PaymentGateway gateway,
                       PaymentEvents events, PaymentUnitOfWork unitOfWork, Clock clock,
                       Duration notFoundIsFinalAfter, Refunds refunds) {
        this.payments = payments;
        this.refunds = refunds;
        this.orders = orders;
        this.renewals = renewals;
        this.gateway = gateway;
        this.events = events;
        this.unitOfWork = unitOfWork;
        this.clock = clock;
        this.notFoundIsFinalAfter = notFoundIsFinalAfter;
    }

    /**
     * @param payment     the payment after the sync
     * @param pgState     what the PG said (to the status query, or to our cancel)
     * @param action      what was done
     * @param decidableAt for RETRY_LATER, when a sync can decide it if the PG still says the same; null if no one
     *                    can tell
     */
    public record SyncResult(Payment payment, PgState pgState, SyncAction action, Instant decidableAt) {
    }

    /** Asks the PG (never blocked by the breaker) and settles. */
    public Optional<SyncResult> sync(PaymentId id) {
        Optional<Payment> found = payments.findById(id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        PgStatus status;
        try {
            status = gateway.status(found.get().paymentKey());
        } catch (RuntimeException e) {
            throw new PgSyncException(PgSyncException.Stage.STATUS_QUERY, null, e);
        }
        return Optional.of(apply(id, status));
    }

    /** Settles with what the PG just said, deciding under the row lock. */
    private SyncResult apply(PaymentId id, PgStatus status) {
        SyncResult decided = unitOfWork.locked(id, locked -> {
            Payment payment = locked.payment();
            boolean refundsExplainCancels = settleRefunds(payment, status);
            Decision<SyncAction> settlement = payment.settleWith(status, new SettleCircumstances(clock.instant(),
                    payable(payment), notFoundIsFinalAfter, refundsExplainCancels));
            locked.append(settlement.event());
            Instant decidableAt = settlement.action() == SyncAction.RETRY_LATER
                    ? payment.decidableAt(status, notFoundIsFinalAfter).orElse(null) : null;
            return new SyncResult(payment, status.state(), settlement.action(), decidableAt);
        });
        if (decided.action() == SyncAction.MISMATCH) {
            log.error("Payment {} ({}): the PG answers {} for key {}, order {}, amount {}; not ours or not what we "
                            + "recorded, nothing changed", id, decided.payment().status(), status.state(),
                    status.paymentKey(), status.orderId(), status.amount());
        }
        return decided.action() == SyncAction.CANCEL_AT_PG ? sendOwedCancel(decided.payment()) : decided;
    }

    /**
     * Sends the cancel a CANCEL_OWED payment is owed, outside any transaction (the PG's cancel is idempotent, so a
     * repeat is safe), and records CANCELED only on the PG's CANCELED. Shared by the sync and a member's refund.
     *
     * @throws PgSyncException at stage CANCEL when the PG did not confirm it; the payment stays CANCEL_OWED and
     *                         reconciliation retries it
     */
    public SyncResult sendOwedCancel(Payment owed) {
        return sendOwedCancel(owed, why(owed));
    }

    /** @param why the words the PG gets with the cancel, after the reason code */
    public SyncResult sendOwedCancel(Payment owed, String why) {
        PgStatus answer;
        try {
            answer = gateway.cancel(owed.paymentKey(), owed.failureCode() + ": " + why);
        } catch (RuntimeException e) {
            throw new PgSyncException(PgSyncException.Stage.CANCEL, PgState.DONE.name(), e);
        }
        SyncResult result = unitOfWork.locked(owed.id(), locked -> {
            Decision<SyncAction> settlement = locked.payment().canceledAtPg(answer, clock.instant());
            locked.append(settlement.event());
            return new SyncResult(locked.payment(), answer.state(), settlement.action(), null);
        });
        if (result.action() == SyncAction.RETRY_LATER) {
            throw new PgSyncException(PgSyncException.Stage.CANCEL, PgState.DONE.name(),
                    new IllegalStateException("the PG answered the cancel with " + answer.state() + ", not CANCELED"));
        }
        log.warn("Payment {}: the PG held money we owed back ({}); it confirmed the cancel", owed.id(), why);
        return result;
    }

    /**
     * Settles the payment's refunds with the PG's cancels of it, under the payment's row lock: a lost refund found in
     * the PG's books SUCCEEDED (a FAILED one found there: a late booking), one the PG has long not booked FAILED.
     * Nothing is sent to the PG (docs/refunds.md).
     *
     * @return whether every cancel the PG booked for the payment is one of our succeeded refunds
     */
    private boolean settleRefunds(Payment payment, PgStatus status) {
        List<Refund> all = refunds.findByPayment(payment.id());
        long refunded = refunds.amounts(payment.id()).refunded();
        for (Refund refund : all) {
            RefundStatus before = refund.status();
            Decision<Refund.Action> change = refund.settleWith(status, refunded, clock.instant(), notFoundIsFinalAfter);
            RefundPayment.apply(refunds, events, refund, before, change);
            if (change.action() == Refund.Action.SUCCEEDED) {
                refunded += refund.money().amount();
                log.warn("Refund {} of payment {}: found in the PG's cancels ({}), SUCCEEDED", refund.id(),
                        payment.id(), before == RefundStatus.FAILED ? "a late booking" : "its answer was lost");
            } else if (change.action() == Refund.Action.FAILED) {
                log.warn("Refund {} of payment {}: the PG never booked it; FAILED, its reservation released",
                        refund.id(), payment.id());
            } else if (change.action() == Refund.Action.MISMATCH) {
                log.error("Refund {} of payment {}: the PG's cancel under its name is not of {}; nothing changed",
                        refund.id(), payment.id(), refund.money());
            }
        }
        return !status.cancels().isEmpty() && status.cancels().stream().allMatch(cancel -> all.stream().anyMatch(
                refund -> refund.status() == RefundStatus.SUCCEEDED && status.cancelOf(refund.id())
                        .filter(cancel::equals).isPresent()));
    }

    /**
     * An order's payment may keep its money while the order is payable; a renewal attempt's (it has no order in
     * order-service) while its period still waits for this very payment (docs/renewals.md).
     */
    private boolean payable(Payment payment) {
        return orders.find(payment.orderId()).map(PayableOrder::isPayable)
                .orElseGet(() -> renewals.awaitsPayment(payment.id()));
    }

    private String why(Payment owed) {
        return switch (owed.failureCode()) {
            case Payment.LATE_APPROVAL -> "approved at the PG after we recorded the payment as not charged";
            case Payment.REFUNDED -> "refund requested by the member";
            default -> owed.customerNotice() == CustomerNotice.FAILED ? "customer was told the payment failed"
                    : "order is no longer payable";
        };
    }
}
