package dev.payments.order.domain;

import dev.payments.contracts.Money;
import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.OrderRefunded;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static dev.payments.order.domain.OrderStatus.CANCELED;
import static dev.payments.order.domain.OrderStatus.CREATED;
import static dev.payments.order.domain.OrderStatus.FAILED;
import static dev.payments.order.domain.OrderStatus.PAID;
import static dev.payments.order.domain.OrderStatus.PARTIALLY_REFUNDED;
import static dev.payments.order.domain.OrderStatus.PAYMENT_PENDING;
import static dev.payments.order.domain.OrderStatus.REFUNDED;

/**
 * A member's order and the payment attempt it waits for. Changes state only through its verbs; each returns the
 * events to write to the outbox in the same transaction, one per transition, or none when the order already took that
 * step for the same payment (a redelivered or replayed outcome changes nothing, beyond what the inbox already filters).
 *
 * <p>Transitions (docs/decisions/order-states.md): CREATED -> PAYMENT_PENDING -> PAID | FAILED;
 * PAID -> PARTIALLY_REFUNDED -> REFUNDED (refunds, by the total they add up to); PAID | PARTIALLY_REFUNDED -> CANCELED
 * (a cancel of the whole payment); FAILED -> PAYMENT_PENDING for a new payment attempt. An outcome for any payment
 * other than the current attempt is illegal: money may have moved where the order cannot account for it, so an
 * operator must look. Money given back (a cancel, a refund) is the exception: never refused for arriving late.
 */
public final class Order {

    public static final int MAX_NAME_LENGTH = 200;

    /** {@link OrderFailed} reasons, stable codes for clients and operators. */
    public static final String PAYMENT_DECLINED = "PAYMENT_DECLINED";
    public static final String PAYMENT_FAILED = "PAYMENT_FAILED";
    public static final String PAYMENT_CANCELED = "PAYMENT_CANCELED";

    private final OrderId id;
    private final MemberId memberId;
    private final Money price;
    private final String orderName;
    private final Instant createdAt;
    private OrderStatus status;
    private PaymentId paymentId;
    private String statusReason;
    /** What the current attempt's succeeded refunds add up to (the whole price once CANCELED); null for nothing. */
    private Money refunded;
    private Instant updatedAt;

    private Order(OrderId id, MemberId memberId, Money price, String orderName, Instant createdAt, OrderStatus status,
                  PaymentId paymentId, String statusReason, Money refunded, Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.memberId = Objects.requireNonNull(memberId);
        this.price = Objects.requireNonNull(price);
        this.orderName = Objects.requireNonNull(orderName);
        this.createdAt = Objects.requireNonNull(createdAt);
        this.status = Objects.requireNonNull(status);
        this.paymentId = paymentId;
        this.statusReason = statusReason;
        this.refunded = refunded;
        this.updatedAt = Objects.requireNonNull(updatedAt);
    }

    /** A new order, payable from now on; publish {@link #created()} with it. */
    public static Order place(OrderId id, MemberId memberId, Money price, String orderName, Instant now) {
        if (orderName == null || orderName.isBlank() || orderName.length() > MAX_NAME_LENGTH) {
            throw new InvalidOrderException("orderName must be 1-" + MAX_NAME_LENGTH + " characters");
        }
        return new Order(id, memberId, price, orderName, now, CREATED, null, null, null, now);
    }

    /**
     * Rebuilds a stored order.
     *
     * @param refunded what the current attempt's refunds gave back, or null for nothing
     */
    public static Order restore(OrderId id, MemberId memberId, Money price, String orderName, Instant createdAt,
                                OrderStatus status, PaymentId paymentId, String statusReason, Money refunded,
                                Instant updatedAt) {
        return new Order(id, memberId, price, orderName, createdAt, status, paymentId, statusReason, refunded,
                updatedAt);
    }

    public OrderCreated created() {
        return new OrderCreated(id.value(), memberId.value(), price.amount(), price.currency(), orderName);
    }

    /**
     * A payment attempt started (payment-service recorded it before calling the PG). Allowed from CREATED, and from
     * FAILED for a new attempt, e.g. a declined customer trying another card.
     */
    public List<OrderEvent> startPayment(PaymentId payment, Instant now) {
        Objects.requireNonNull(payment);
        if (payment.equals(paymentId)) {
            return List.of();
        }
        if (status != CREATED && status != FAILED) {
            throw illegal(PAYMENT_PENDING, payment);
        }
        paymentId = payment;
        refunded = null;
        moveTo(PAYMENT_PENDING, null, now);
        return List.of(new OrderPaymentPending(id.value(), payment.value()));
    }

    /**
     * The current attempt was approved: the customer's money is held for this order. A refund of that payment seen
     * before its approval (the approval was parked and re-driven later) is applied right after, as its own transition.
     */
    public List<OrderEvent> markPaid(PaymentId payment, Money paid, Instant now) {
        if (isCurrent(payment) && status.wasPaid()) {
            return List.of();
        }
        requirePendingOn(payment, PAID);
        if (!price.equals(paid)) {
            throw new PaymentAmountMismatchException(id, price, paid, payment);
        }
        moveTo(PAID, null, now);
        List<OrderEvent> events = new ArrayList<>(2);
        events.add(new OrderPaid(id.value(), payment.value()));
        if (refunded != null) {
            events.add(moveToRefunded(now));
        }
        return List.copyOf(events);
    }

    /** The current attempt ended and no money moved (declined by the card company, or known not to have reached it). */
    public List<OrderEvent> markFailed(PaymentId payment, String reason, Instant now) {
        if (isCurrent(payment) && status == FAILED) {
            return List.of();
        }
        requirePendingOn(payment, FAILED);
        refunded = null;
        moveTo(FAILED, reason, now);
        return List.of(new OrderFailed(id.value(), payment.value(), reason));
    }

    /**
     * The PG cancelled the current attempt's charge as a whole. A paid order, partially refunded or not, is CANCELED:
     * whatever was still held went back, so all of the price is returned. An order still waiting ends FAILED, because
     * the approval it waited for was compensated (seed 000: without this branch such orders stayed PAYMENT_PENDING
     * forever). A REFUNDED order stays as it is: the refunds had already given everything back, the cancel returned
     * nothing more. A cancel of an earlier attempt changes nothing.
     */
    public List<OrderEvent> paymentCanceled(PaymentId payment, String reason, Instant now) {
        if (!isCurrent(payment)) {
            // An earlier attempt's charge given back (the PG approved it after the order moved on): money
            // the order never counted, now returned. Nothing for this order to do, and nothing unaccounted.
            return List.of();
        }
        switch (status) {
            case PAID:
            case PARTIALLY_REFUNDED:
                refunded = price;
                moveTo(CANCELED, reason, now);
                return List.of(new OrderCanceled(id.value(), payment.value(), reason));
            case PAYMENT_PENDING:
                refunded = null;
                moveTo(FAILED, PAYMENT_CANCELED, now);
                return List.of(new OrderFailed(id.value(), payment.value(), PAYMENT_CANCELED));
            default:
                return List.of();
        }
    }

    /**
     * A refund of the current attempt succeeded, and that payment's succeeded refunds now add up to
     * {@code refundedTotal} (payment-service computes it under the payment's row lock, so the totals of one payment's
     * refunds only grow). The order takes the highest total it has seen: a redelivered refund, or an earlier one
     * arriving late, changes nothing. A paid order becomes PARTIALLY_REFUNDED, or REFUNDED once the total is the price;
     * a further refund raises a PARTIALLY_REFUNDED order's total (one event each time).
     *
     * <p>Never refused for arriving late, like a cancel: a refund of an earlier attempt (money the order never
     * counted), or one reaching an order that is FAILED, REFUNDED or CANCELED (nothing of the price is held any more),
     * changes nothing. One that arrives before its payment's approval was applied (only if that approval was parked)
     * is remembered without a transition and applied by {@link #markPaid}.
     *
     * @param paymentAmount what the refunded payment was approved for: must be the order's price
     * @throws PaymentAmountMismatchException the payment was of another amount or currency, or the total exceeds it
     */
    public List<OrderEvent> refundSucceeded(PaymentId payment, Money refundedTotal, Money paymentAmount, Instant now) {
        if (!isCurrent(payment) || status == FAILED || status == REFUNDED || status == CANCELED) {
            return List.of();
        }
        if (!price.equals(paymentAmount) || !price.currency().equals(refundedTotal.currency())
                || refundedTotal.amount() > price.amount()) {
            throw PaymentAmountMismatchException.ofRefund(id, price, paymentAmount, refundedTotal, payment);
        }
        if (refunded != null && refunded.amount() >= refundedTotal.amount()) {
            return List.of();
        }
        refunded = refundedTotal;
        if (status == PAYMENT_PENDING) {
            // Kept for markPaid; the order is not paid until its approval is applied (with the amount check).
            return List.of();
        }
        return List.of(moveToRefunded(now));
    }

    private OrderEvent moveToRefunded(Instant now) {
        if (refunded.amount() == price.amount()) {
            moveTo(REFUNDED, null, now);
            return new OrderRefunded(id.value(), paymentId.value(), refunded.amount(), refunded.currency());
        }
        moveTo(PARTIALLY_REFUNDED, null, now);
        return new OrderPartiallyRefunded(id.value(), paymentId.value(), refunded.amount(), price.amount(),
                price.currency());
    }

    /**
     * The PG's answer for the current attempt was lost: money may have moved, so nothing is final and the order keeps
     * waiting (reconciliation settles the payment later). Not a transition; no event.
     */
    public void paymentOutcomeUnknown(PaymentId payment) {
        if (!isCurrent(payment)) {
            throw illegal(PAYMENT_PENDING, payment);
        }
    }

    private boolean isCurrent(PaymentId payment) {
        return payment != null && payment.equals(paymentId);
    }

    private void requirePendingOn(PaymentId payment, OrderStatus target) {
        if (status != PAYMENT_PENDING || !isCurrent(payment)) {
            throw illegal(target, payment);
        }
    }

    private IllegalOrderTransitionException illegal(OrderStatus target, PaymentId offered) {
        return new IllegalOrderTransitionException(id, status, target, paymentId, offered);
    }

    private void moveTo(OrderStatus target, String reason, Instant now) {
        this.status = target;
        this.statusReason = reason;
        this.updatedAt = now;
    }

    public OrderId id() {
        return id;
    }

    public MemberId memberId() {
        return memberId;
    }

    public Money price() {
        return price;
    }

    public String orderName() {
        return orderName;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public OrderStatus status() {
        return status;
    }

    /** The current (latest) payment attempt, or empty before the first one. */
    public Optional<PaymentId> paymentId() {
        return Optional.ofNullable(paymentId);
    }

    /** Why the order is FAILED or CANCELED; empty otherwise. */
    public Optional<String> statusReason() {
        return Optional.ofNullable(statusReason);
    }

    /**
     * What was given back of the current attempt's payment: its succeeded refunds' total (PARTIALLY_REFUNDED, REFUNDED;
     * also a refund seen ahead of its approval while PAYMENT_PENDING), the whole price once CANCELED; empty when nothing.
     */
    public Optional<Money> refunded() {
        return Optional.ofNullable(refunded);
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
