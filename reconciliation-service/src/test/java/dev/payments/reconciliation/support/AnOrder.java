package dev.payments.reconciliation.support;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import java.util.List;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentPurpose;
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
    private final PaymentPurpose purpose;

    private AnOrder(UUID orderId, long amount, PaymentPurpose purpose) {
        this.orderId = orderId;
        this.amount = amount;
        this.purpose = purpose;
    }

    private AnOrder(long amount) {
        this(UUID.randomUUID(), amount, PaymentPurpose.ORDER);
    }

    /** The same order with a new payment attempt (a declined customer trying another card). */
    public AnOrder nextAttempt() {
        return new AnOrder(orderId, amount, purpose);
    }

    /**
     * A renewal run's charge of a subscription period: payment events only, its order id the attempt's id at the PG,
     * no order-service order (so {@link #created()} and the other order events do not apply to it).
     */
    public static AnOrder aRenewalCharge() {
        return new AnOrder(UUID.randomUUID(), 9_900, PaymentPurpose.RENEWAL);
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
        return new PaymentRequested(paymentId, orderId, MEMBER, amount, CURRENCY, paymentKey, purpose);
    }

    public PaymentUnknown unknown() {
        return new PaymentUnknown(paymentId, orderId, MEMBER, amount, CURRENCY, "PG_READ_TIMEOUT", purpose);
    }

    public PaymentApproved approved(String transactionKey, Instant approvedAt) {
        return new PaymentApproved(paymentId, orderId, MEMBER, amount, CURRENCY, transactionKey, approvedAt, purpose);
    }

    /** A refund of part of the payment that the PG confirmed: its request and its success. */
    /** What order-service publishes once the payment's refunds add up to {@code refundedTotal}, less than the amount. */
    public OrderPartiallyRefunded partiallyRefunded(long refundedTotal) {
        return new OrderPartiallyRefunded(orderId, paymentId, refundedTotal, amount, CURRENCY);
    }

    public List<DomainEvent> refunded(UUID refundId, long refund, long refundedTotal, String pgTransactionKey) {
        return List.of(new RefundRequested(refundId, paymentId, orderId, MEMBER, refund, CURRENCY, amount, MEMBER, purpose),
                new RefundSucceeded(refundId, paymentId, orderId, MEMBER, refund, CURRENCY, refundedTotal, amount,
                        pgTransactionKey, Instant.now(), purpose));
    }

    public PaymentFailed failed(String reason) {
        return new PaymentFailed(paymentId, orderId, MEMBER, amount, CURRENCY, reason, purpose);
    }

    public PaymentDeclined declined() {
        return new PaymentDeclined(paymentId, orderId, MEMBER, amount, CURRENCY, "REJECT_CARD_PAYMENT", "limit", purpose);
    }

    public PaymentCanceled canceled(String reason, Instant at) {
        return new PaymentCanceled(paymentId, orderId, MEMBER, amount, CURRENCY, reason, at, purpose);
    }
}
