package dev.payments.payment.domain;

import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static dev.payments.payment.domain.PaymentStatus.APPROVED;
import static dev.payments.payment.domain.PaymentStatus.CANCELED;
import static dev.payments.payment.domain.PaymentStatus.DECLINED;
import static dev.payments.payment.domain.PaymentStatus.FAILED;
import static dev.payments.payment.domain.PaymentStatus.REQUESTED;
import static dev.payments.payment.domain.PaymentStatus.UNKNOWN;

/**
 * One attempt to charge a member for an order. Changes state only through its verbs; each returns the one event that
 * must be written to the outbox in the same transaction.
 */
public final class Payment {

    private static final Map<PaymentStatus, Set<PaymentStatus>> ALLOWED = Map.of(
            // A stale REQUESTED (request thread died, final write failed) is settled like UNKNOWN.
            REQUESTED, EnumSet.of(APPROVED, DECLINED, FAILED, UNKNOWN, CANCELED),
            UNKNOWN, EnumSet.of(APPROVED, FAILED, CANCELED),
            APPROVED, EnumSet.of(CANCELED),
            DECLINED, EnumSet.noneOf(PaymentStatus.class),
            FAILED, EnumSet.noneOf(PaymentStatus.class),
            CANCELED, EnumSet.noneOf(PaymentStatus.class));

    private final PaymentId id;
    private final OrderId orderId;
    private final MemberId memberId;
    private final Money money;
    private final String paymentKey;
    private final Instant requestedAt;
    private PaymentStatus status;
    private CustomerNotice customerNotice;
    private String pgTransactionKey;
    private Instant approvedAt;
    private String failureCode;
    private String failureMessage;
    private Instant updatedAt;

    private Payment(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                    Instant requestedAt, PaymentStatus status, CustomerNotice customerNotice, String pgTransactionKey,
                    Instant approvedAt, String failureCode, String failureMessage, Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.orderId = Objects.requireNonNull(orderId);
        this.memberId = Objects.requireNonNull(memberId);
        this.money = Objects.requireNonNull(money);
        this.paymentKey = Objects.requireNonNull(paymentKey);
        this.requestedAt = Objects.requireNonNull(requestedAt);
        this.status = Objects.requireNonNull(status);
        this.customerNotice = Objects.requireNonNull(customerNotice);
        this.pgTransactionKey = pgTransactionKey;
        this.approvedAt = approvedAt;
        this.failureCode = failureCode;
        this.failureMessage = failureMessage;
        this.updatedAt = updatedAt;
    }

    /** Starts a payment: from now on money may move, so it is recorded before the PG is called. */
    public static Payment request(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                                  Instant now) {
        return new Payment(id, orderId, memberId, money, paymentKey, now, REQUESTED, CustomerNotice.NONE, null, null,
                null, null, now);
    }

    /** Rebuilds a stored payment. */
    public static Payment restore(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                                  Instant requestedAt, PaymentStatus status, CustomerNotice customerNotice,
                                  String pgTransactionKey, Instant approvedAt, String failureCode,
                                  String failureMessage, Instant updatedAt) {
        return new Payment(id, orderId, memberId, money, paymentKey, requestedAt, status, customerNotice,
                pgTransactionKey, approvedAt, failureCode, failureMessage, updatedAt);
    }

    public PaymentRequested requested() {
        return new PaymentRequested(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                paymentKey);
    }

    public PaymentApproved approve(String transactionKey, Instant at) {
        moveTo(APPROVED, at);
        this.pgTransactionKey = transactionKey;
        this.approvedAt = at;
        return new PaymentApproved(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                transactionKey, at);
    }

    public PaymentDeclined decline(String code, String message, Instant at) {
        moveTo(DECLINED, at);
        this.failureCode = code;
        this.failureMessage = message;
        return new PaymentDeclined(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                code, message);
    }

    public PaymentFailed fail(String reason, Instant at) {
        moveTo(FAILED, at);
        this.failureCode = reason;
        return new PaymentFailed(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(), reason);
    }

    public PaymentUnknown markUnknown(String reason, Instant at) {
        moveTo(UNKNOWN, at);
        this.failureCode = reason;
        return new PaymentUnknown(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                reason);
    }

    public PaymentCanceled cancel(String reason, Instant at) {
        moveTo(CANCELED, at);
        this.failureCode = reason;
        return new PaymentCanceled(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                reason, at);
    }

    /** Records what the customer was told; said once the answer is decided, in the same transaction. */
    public void told(CustomerNotice notice) {
        this.customerNotice = Objects.requireNonNull(notice);
    }

    public boolean canMoveTo(PaymentStatus target) {
        return ALLOWED.get(status).contains(target);
    }

    private void moveTo(PaymentStatus target, Instant at) {
        if (!canMoveTo(target)) {
            throw new IllegalPaymentTransitionException(id, status, target);
        }
        this.status = target;
        this.updatedAt = at;
    }

    public PaymentId id() {
        return id;
    }

    public OrderId orderId() {
        return orderId;
    }

    public MemberId memberId() {
        return memberId;
    }

    public Money money() {
        return money;
    }

    public String paymentKey() {
        return paymentKey;
    }

    public Instant requestedAt() {
        return requestedAt;
    }

    public PaymentStatus status() {
        return status;
    }

    public CustomerNotice customerNotice() {
        return customerNotice;
    }

    public String pgTransactionKey() {
        return pgTransactionKey;
    }

    public Instant approvedAt() {
        return approvedAt;
    }

    public String failureCode() {
        return failureCode;
    }

    public String failureMessage() {
        return failureMessage;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
