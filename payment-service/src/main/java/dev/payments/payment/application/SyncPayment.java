package dev.payments.payment.application;

import dev.payments.payment.application.PaymentGateway.PgStatus;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Settles a payment with what the PG says (operator sync, reconciliation, the PG's callback). Reads the current state
 * first, so running it twice changes nothing the second time (field report 002). What the customer was told decides
 * the repair: told PENDING and the order still payable -> keep the charge; told FAILED, or the order no longer
 * payable -> cancel the charge at the PG (compensation).
 */
public class SyncPayment {

    private static final Logger log = LoggerFactory.getLogger(SyncPayment.class);

    private final Payments payments;
    private final PayableOrders orders;
    private final PaymentGateway gateway;
    private final PaymentEvents events;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final Duration notFoundIsFinalAfter;

    /**
     * @param notFoundIsFinalAfter a payment older than this that the PG has never seen will never be booked: the
     *                             confirm did not arrive (FAILED, nothing charged)
     */
    public SyncPayment(Payments payments, PayableOrders orders, PaymentGateway gateway, PaymentEvents events,
                       TransactionTemplate transaction, Clock clock, Duration notFoundIsFinalAfter) {
        this.payments = payments;
        this.orders = orders;
        this.gateway = gateway;
        this.events = events;
        this.transaction = transaction;
        this.clock = clock;
        this.notFoundIsFinalAfter = notFoundIsFinalAfter;
    }

    /**
     * @param payment   the payment after the sync
     * @param pgState   what the PG said
     * @param action    what was done: NONE, APPROVED, FAILED, CANCELED, RETRY_LATER
     */
    public record SyncResult(Payment payment, String pgState, String action) {
    }

    /** Asks the PG (never blocked by the breaker) and settles. */
    public Optional<SyncResult> sync(PaymentId id) {
        Optional<Payment> found = payments.findById(id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        PgStatus status;
        try {
            status = gateway.status(found.get().orderId());
        } catch (RuntimeException e) {
            throw new PgSyncException(PgSyncException.Stage.STATUS_QUERY, null, e);
        }
        return Optional.of(apply(id, status));
    }

    /** Settles with a status the PG already told us (its callback). */
    public SyncResult apply(PaymentId id, PgStatus status) {
        Payment current = payments.findById(id).orElseThrow();
        if ("DONE".equals(status.state()) && current.status().isUnsettled() && mustCompensate(current)) {
            // The PG call happens outside any transaction; only the result is written.
            PgStatus canceled;
            try {
                canceled = gateway.cancel(current.paymentKey(), "COMPENSATION: " + compensationReason(current));
            } catch (RuntimeException e) {
                throw new PgSyncException(PgSyncException.Stage.CANCEL, status.state(), e);
            }
            log.warn("Payment {} was approved at the PG after the customer was told {}; cancelled the charge",
                    id, current.customerNotice());
            return write(id, canceled, true);
        }
        return write(id, status, false);
    }

    private SyncResult write(PaymentId id, PgStatus status, boolean compensated) {
        return transaction.execute(tx -> {
            Payment payment = payments.lockById(id).orElseThrow();
            String action = decide(payment, status, compensated);
            if (!"NONE".equals(action) && !"RETRY_LATER".equals(action)) {
                payments.update(payment);
            }
            return new SyncResult(payment, status.state(), action);
        });
    }

    private String decide(Payment payment, PgStatus status, boolean compensated) {
        String state = status.state();
        PaymentStatus current = payment.status();
        if ("DONE".equals(state)) {
            if (current.isUnsettled() && payment.customerNotice() == CustomerNotice.FAILED) {
                // The customer gave up (told "you will not be charged") after this sync read the payment: keeping
                // the charge would contradict that. The next sync sees it and cancels at the PG.
                return "RETRY_LATER";
            }
            if (current.isUnsettled()) {
                events.publish(payment.approve(status.transactionKey(),
                        status.approvedAt() != null ? status.approvedAt() : clock.instant()));
                return "APPROVED";
            }
            return "NONE";
        }
        if ("CANCELED".equals(state)) {
            // A compensation that raced another one (the give-up's own sync, the settler, a callback) finds the row
            // CANCELED already: the PG's cancel is idempotent, so there is nothing more to write.
            if ((compensated && current.isUnsettled()) || current == PaymentStatus.APPROVED) {
                events.publish(payment.cancel(compensated ? "COMPENSATION" : "PG_CANCELED", clock.instant()));
                return "CANCELED";
            }
            if (current.isUnsettled()) {
                events.publish(payment.fail("PG_CANCELED", clock.instant()));
                return "FAILED";
            }
            return "NONE";
        }
        if (("ABORTED".equals(state) || "EXPIRED".equals(state)) && current.isUnsettled()) {
            events.publish(payment.fail("PG_" + state, clock.instant()));
            return "FAILED";
        }
        if (status.isNotFound() && current.isUnsettled()
                && payment.requestedAt().plus(notFoundIsFinalAfter).isBefore(clock.instant())) {
            events.publish(payment.fail("PG_NOT_FOUND", clock.instant()));
            return "FAILED";
        }
        // READY, IN_PROGRESS, a recent NOT_FOUND: the PG has not decided, or has not seen it yet.
        return current.isUnsettled() ? "RETRY_LATER" : "NONE";
    }

    private boolean mustCompensate(Payment payment) {
        return payment.customerNotice() == CustomerNotice.FAILED
                || orders.find(payment.orderId()).map(order -> !order.isPayable()).orElse(true);
    }

    private String compensationReason(Payment payment) {
        return payment.customerNotice() == CustomerNotice.FAILED ? "customer was told the payment failed"
                : "order is no longer payable (" + orders.find(payment.orderId()).map(PayableOrder::status).orElse(null) + ")";
    }
}
