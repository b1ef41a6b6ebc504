package dev.payments.order.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.Money;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCancelOwed;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;
import dev.payments.contracts.RefundFailed;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.RefundUnknown;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import dev.payments.order.domain.PaymentId;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * Moves an order along what happened to its payment. Runs inside the inbox's transaction, so the event id, the
 * order's new state and the order event commit together or not at all.
 */
public class ApplyPaymentOutcome {

    private final Orders orders;
    private final OrderEvents events;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public ApplyPaymentOutcome(Orders orders, OrderEvents events, TransactionTemplate transaction, Clock clock) {
        this.orders = orders;
        this.events = events;
        this.transaction = transaction;
        this.clock = clock;
    }

    /**
     * Whether an event is this service's business: everything but a renewal charge's payment events, which pay a
     * subscription period and never one of our orders (docs/decisions/renewal-payments-downstream.md). Anything else,
     * even an event {@link #apply} will refuse, is taken on, so that a wrong event is still dead-lettered.
     */
    public static boolean concerns(DomainEvent event) {
        return !(event instanceof PaymentEvent payment) || payment.purpose() == PaymentPurpose.ORDER;
    }

    /**
     * Applies an order payment's event; a renewal charge's event changes nothing here.
     *
     * @throws OrderNotFoundException          the event names an order this service does not have
     * @throws IllegalArgumentException        the event is not a payment event
     * @throws dev.payments.order.domain.IllegalOrderTransitionException the outcome contradicts the order's state
     */
    public void apply(DomainEvent event) {
        if (!(event instanceof PaymentEvent payment)) {
            throw new IllegalArgumentException("Not a payment event: " + event.getClass().getSimpleName());
        }
        if (payment.purpose() != PaymentPurpose.ORDER) {
            // A renewal run's charge pays a subscription period, not one of our orders: none of our business by rule,
            // consumed (the inbox records it) and never dead-lettered (docs/decisions/renewal-payments-downstream.md).
            return;
        }
        // Joins the inbox's transaction when the listener calls it (the usual case).
        transaction.executeWithoutResult(status -> {
            Order order = orders.lockById(new OrderId(event.orderId()))
                    .orElseThrow(() -> new OrderNotFoundException(new OrderId(event.orderId())));
            Instant now = clock.instant();
            List<OrderEvent> changes = decide(order, event, now);
            // A refund seen ahead of its payment's approval changes the order without a transition: stored, no event.
            if (!changes.isEmpty() || event instanceof RefundSucceeded) {
                orders.update(order);
            }
            changes.forEach(events::publish);
        });
    }

    private static List<OrderEvent> decide(Order order, DomainEvent event, Instant now) {
        if (event instanceof PaymentRequested requested) {
            return order.startPayment(new PaymentId(requested.paymentId()), now);
        }
        if (event instanceof PaymentApproved approved) {
            return order.markPaid(new PaymentId(approved.paymentId()),
                    new Money(approved.amount(), approved.currency()), now);
        }
        if (event instanceof PaymentDeclined declined) {
            return order.markFailed(new PaymentId(declined.paymentId()), Order.PAYMENT_DECLINED, now);
        }
        if (event instanceof PaymentFailed failed) {
            return order.markFailed(new PaymentId(failed.paymentId()), Order.PAYMENT_FAILED, now);
        }
        if (event instanceof PaymentUnknown unknown) {
            // Money may have moved: never finalise on UNKNOWN; reconciliation settles it (docs/field-reports.md, 002).
            order.paymentOutcomeUnknown(new PaymentId(unknown.paymentId()));
            return List.of();
        }
        if (event instanceof PaymentCancelOwed) {
            // payment-service owes the PG a cancel and retries it until the PG confirms; the order moves with that
            // confirmation (PaymentCanceled), never before: until then the money is still charged.
            return List.of();
        }
        if (event instanceof PaymentCanceled canceled) {
            return order.paymentCanceled(new PaymentId(canceled.paymentId()), canceled.reason(), now);
        }
        if (event instanceof RefundSucceeded refund) {
            return order.refundSucceeded(new PaymentId(refund.paymentId()),
                    new Money(refund.refundedTotal(), refund.currency()),
                    new Money(refund.paymentAmount(), refund.currency()), now);
        }
        if (event instanceof RefundRequested || event instanceof RefundFailed || event instanceof RefundUnknown) {
            // Nothing is given back until the PG books the refund (RefundSucceeded); a requested or unknown refund's
            // amount is only reserved on the payment, a failed one released (docs/refunds.md).
            return List.of();
        }
        throw new IllegalStateException("Unhandled payment event " + event.getClass().getSimpleName());
    }
}
