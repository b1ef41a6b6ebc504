package dev.payments.order.domain;

import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPaymentPending;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import static dev.payments.order.domain.OrderStatus.CANCELED;
import static dev.payments.order.domain.OrderStatus.CREATED;
import static dev.payments.order.domain.OrderStatus.FAILED;
import static dev.payments.order.domain.OrderStatus.PAID;
import static dev.payments.order.domain.OrderStatus.PAYMENT_PENDING;

/**
 * A member's order and the payment attempt it waits for. Changes state only through its verbs; each returns the one
 * event to write to the outbox in the same transaction, or nothing when the order already took that step for the
 * same payment (a redelivered or replayed outcome changes nothing, beyond what the inbox already filters).
 *
 * <p>Transitions (docs/decisions/order-states.md): CREATED -> PAYMENT_PENDING -> PAID | FAILED; PAID -> CANCELED;
 * FAILED -> PAYMENT_PENDING for a new payment attempt. An outcome for any payment other than the current attempt is
 * illegal: money may have moved where the order cannot account for it, so an operator must look.
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
    private Instant updatedAt;

    private Order(OrderId id, MemberId memberId, Money price, String orderName, Instant createdAt, OrderStatus status,
                  PaymentId paymentId, String statusReason, Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.memberId = Objects.requireNonNull(memberId);
        this.price = Objects.requireNonNull(price);
        this.orderName = Objects.requireNonNull(orderName);
        this.createdAt = Objects.requireNonNull(createdAt);
        this.status = Objects.requireNonNull(status);
        this.paymentId = paymentId;
        this.statusReason = statusReason;
        this.updatedAt = Objects.requireNonNull(updatedAt);
    }

    /** A new order, payable from now on; publish {@link #created()} with it. */
    public static Order place(OrderId id, MemberId memberId, Money price, String orderName, Instant now) {
        if (orderName == null || orderName.isBlank() || orderName.length() > MAX_NAME_LENGTH) {
            throw new InvalidOrderException("orderName must be 1-" + MAX_NAME_LENGTH + " characters");
        }
        return new Order(id, memberId, price, orderName, now, CREATED, null, null, now);
    }

    /** Rebuilds a stored order. */
    public static Order restore(OrderId id, MemberId memberId, Money price, String orderName, Instant createdAt,
                                OrderStatus status, PaymentId paymentId, String statusReason, Instant updatedAt) {
        return new Order(id, memberId, price, orderName, createdAt, status, paymentId, statusReason, updatedAt);
    }

    public OrderCreated created() {
        return new OrderCreated(id.value(), memberId.value(), price.amount(), price.currency(), orderName);
    }

    /**
     * A payment attempt started (payment-service recorded it before calling the PG). Allowed from CREATED, and from
     * FAILED for a new attempt, e.g. a declined customer trying another card.
     */
    public Optional<OrderEvent> startPayment(PaymentId payment, Instant now) {
        Objects.requireNonNull(payment);
        if (payment.equals(paymentId)) {
            return Optional.empty();
        }
        if (status != CREATED && status != FAILED) {
            throw illegal(PAYMENT_PENDING, payment);
        }
        paymentId = payment;
        moveTo(PAYMENT_PENDING, null, now);
        return Optional.of(new OrderPaymentPending(id.value(), payment.value()));
    }

    /** The current attempt was approved: the customer's money is held for this order. */
    public Optional<OrderEvent> markPaid(PaymentId payment, Money paid, Instant now) {
        if (isCurrent(payment) && (status == PAID || status == CANCELED)) {
            return Optional.empty();
        }
        requirePendingOn(payment, PAID);
        if (!price.equals(paid)) {
            throw new PaymentAmountMismatchException(id, price, paid, payment);
        }
        moveTo(PAID, null, now);
        return Optional.of(new OrderPaid(id.value(), payment.value()));
    }

    /** The current attempt ended and no money moved (declined by the card company, or known not to have reached it). */
    public Optional<OrderEvent> markFailed(PaymentId payment, String reason, Instant now) {
        if (isCurrent(payment) && status == FAILED) {
            return Optional.empty();
        }
        requirePendingOn(payment, FAILED);
        moveTo(FAILED, reason, now);
        return Optional.of(new OrderFailed(id.value(), payment.value(), reason));
    }

    /**
     * The PG cancelled the current attempt's charge. A paid order is CANCELED; an order still waiting ends FAILED,
     * because the approval it waited for was compensated (seed 000: without this branch such orders stayed
     * PAYMENT_PENDING forever). A cancel of an earlier attempt changes nothing.
     */
    public Optional<OrderEvent> paymentCanceled(PaymentId payment, String reason, Instant now) {
        if (!isCurrent(payment)) {
            // An earlier attempt's charge given back (the PG approved it after the order moved on): money
            // the order never counted, now returned. Nothing for this order to do, and nothing unaccounted.
            return Optional.empty();
        }
        switch (status) {
            case PAID:
                moveTo(CANCELED, reason, now);
                return Optional.of(new OrderCanceled(id.value(), payment.value(), reason));
            case PAYMENT_PENDING:
                moveTo(FAILED, PAYMENT_CANCELED, now);
                return Optional.of(new OrderFailed(id.value(), payment.value(), PAYMENT_CANCELED));
            default:
                return Optional.empty();
        }
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

    public Instant updatedAt() {
        return updatedAt;
    }
}
