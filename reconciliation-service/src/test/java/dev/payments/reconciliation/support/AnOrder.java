package dev.payments.reconciliation.support;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;

import java.time.Instant;
import java.util.UUID;

/**
 * Test data: one order and its payment, and the events each service would publish about them
 * ({@code anOrder().requested()}, {@code .unknown()}, ...).
 */
public final class AnOrder {

    public static final String MEMBER = "member-7";
    public static final String CURRENCY = "KRW";

    public final UUID orderId;
    public final UUID paymentId = UUID.randomUUID();
    public final String paymentKey = "pk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    public final long amount;

    private AnOrder(UUID orderId, long amount) {
        this.orderId = orderId;
        this.amount = amount;
    }

    private AnOrder(long amount) {
        this(UUID.randomUUID(), amount);
    }

    /** The same order with a new payment attempt (a declined customer trying another card). */
    public AnOrder nextAttempt() {
        return new AnOrder(orderId, amount);
    }

    public static AnOrder anOrder() {
        return new AnOrder(15_000);
    }

    public static AnOrder anOrder(long amount) {
        return new AnOrder(amount);
    }

    public OrderCreated created() {
        return new OrderCreated(orderId, MEMBER, amount, CURRENCY, "Annual plan");
    }

    public OrderPaymentPending pending() {
        return new OrderPaymentPending(orderId, paymentId);
    }

    public OrderPaid paid() {
        return new OrderPaid(orderId, paymentId);
    }

    public OrderFailed orderFailed(String reason) {
        return new OrderFailed(orderId, paymentId, reason);
    }

    public PaymentRequested requested() {
        return new PaymentRequested(paymentId, orderId, MEMBER, amount, CURRENCY, paymentKey);
    }

    public PaymentUnknown unknown() {
        return new PaymentUnknown(paymentId, orderId, MEMBER, amount, CURRENCY, "PG_READ_TIMEOUT");
    }

    public PaymentApproved approved(String transactionKey, Instant approvedAt) {
        return new PaymentApproved(paymentId, orderId, MEMBER, amount, CURRENCY, transactionKey, approvedAt);
    }

    public PaymentFailed failed(String reason) {
        return new PaymentFailed(paymentId, orderId, MEMBER, amount, CURRENCY, reason);
    }

    public PaymentDeclined declined() {
        return new PaymentDeclined(paymentId, orderId, MEMBER, amount, CURRENCY, "REJECT_CARD_PAYMENT", "limit");
    }

    public PaymentCanceled canceled(String reason, Instant at) {
        return new PaymentCanceled(paymentId, orderId, MEMBER, amount, CURRENCY, reason, at);
    }
}
