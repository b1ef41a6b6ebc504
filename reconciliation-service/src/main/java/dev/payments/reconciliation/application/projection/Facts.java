package dev.payments.reconciliation.application.projection;

import dev.payments.contracts.EventType;
import dev.payments.contracts.Money;
import dev.payments.contracts.OrderCanceled;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.OrderEvent;
import dev.payments.contracts.OrderFailed;
import dev.payments.contracts.OrderPaid;
import dev.payments.contracts.OrderPartiallyRefunded;
import dev.payments.contracts.OrderPaymentPending;
import dev.payments.contracts.OrderRefunded;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCancelOwed;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;
import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.RefundFailed;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.RefundUnknown;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.projection.EventRef;
import dev.payments.reconciliation.domain.projection.MemberId;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderFact;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.PaymentFact;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.UUID;

/** Translates the wire contract's events into the projection's facts, so the domain never depends on the wire. */
final class Facts {

    private Facts() {
    }

    static PaymentFact of(EventRef ref, PaymentEvent event) {
        PaymentStatus status;
        String reason = null;
        String paymentKey = null;
        String pgTransactionKey = null;
        Instant approvedAt = null;
        Instant canceledAt = null;
        switch (EventType.of(event)) {
            case PAYMENT_REQUESTED -> {
                status = PaymentStatus.REQUESTED;
                paymentKey = ((PaymentRequested) event).paymentKey();
            }
            case PAYMENT_APPROVED -> {
                PaymentApproved approved = (PaymentApproved) event;
                status = PaymentStatus.APPROVED;
                pgTransactionKey = approved.pgTransactionKey();
                approvedAt = approved.approvedAt();
            }
            case PAYMENT_DECLINED -> {
                PaymentDeclined declined = (PaymentDeclined) event;
                status = PaymentStatus.DECLINED;
                reason = declined.message() == null ? declined.code() : declined.code() + ": " + declined.message();
            }
            case PAYMENT_FAILED -> {
                status = PaymentStatus.FAILED;
                reason = ((PaymentFailed) event).reason();
            }
            case PAYMENT_UNKNOWN -> {
                status = PaymentStatus.UNKNOWN;
                reason = ((PaymentUnknown) event).reason();
            }
            case PAYMENT_CANCEL_OWED -> {
                PaymentCancelOwed owed = (PaymentCancelOwed) event;
                status = PaymentStatus.CANCEL_OWED;
                reason = owed.reason();
                // A late approval's transaction key arrives only here: the ledger audit matches it.
                pgTransactionKey = owed.pgTransactionKey();
            }
            case PAYMENT_CANCELED -> {
                PaymentCanceled canceled = (PaymentCanceled) event;
                status = PaymentStatus.CANCELED;
                reason = canceled.reason();
                canceledAt = canceled.canceledAt();
            }
            default -> throw new IllegalArgumentException("not a payment event: " + ref.type());
        }
        return new PaymentFact(ref, new PaymentId(event.paymentId()), new OrderId(event.orderId()),
                new MemberId(event.memberId()), new Money(event.amount(), event.currency()),
                purpose(event.purpose()), status, reason, paymentKey, pgTransactionKey, approvedAt, canceledAt);
    }

    static boolean isRefund(DomainEvent event) {
        return event instanceof RefundRequested || event instanceof RefundSucceeded || event instanceof RefundFailed
                || event instanceof RefundUnknown;
    }

    static RefundView refund(EventRef ref, PaymentEvent event) {
        RefundView.Status status;
        UUID refundId;
        String pgTransactionKey = null;
        if (event instanceof RefundRequested requested) {
            status = RefundView.Status.REQUESTED;
            refundId = requested.refundId();
        } else if (event instanceof RefundSucceeded succeeded) {
            status = RefundView.Status.SUCCEEDED;
            refundId = succeeded.refundId();
            pgTransactionKey = succeeded.pgTransactionKey();
        } else if (event instanceof RefundFailed failed) {
            status = RefundView.Status.FAILED;
            refundId = failed.refundId();
        } else if (event instanceof RefundUnknown unknown) {
            status = RefundView.Status.UNKNOWN;
            refundId = unknown.refundId();
        } else {
            throw new IllegalArgumentException("not a refund event: " + ref.type());
        }
        return new RefundView(refundId, new PaymentId(event.paymentId()), new OrderId(event.orderId()),
                new Money(event.amount(), event.currency()), status, pgTransactionKey, ref.occurredAt());
    }

    static OrderFact of(EventRef ref, OrderEvent event) {
        OrderId orderId = new OrderId(event.orderId());
        return switch (EventType.of(event)) {
            case ORDER_CREATED -> {
                OrderCreated created = (OrderCreated) event;
                yield new OrderFact(ref, orderId, OrderStatus.CREATED, null, null, new OrderDetails(
                        new MemberId(created.memberId()), new Money(created.amount(), created.currency()),
                        created.orderName()), null);
            }
            case ORDER_PAYMENT_PENDING -> new OrderFact(ref, orderId, OrderStatus.PAYMENT_PENDING,
                    paymentId(((OrderPaymentPending) event).paymentId()), null, null, null);
            case ORDER_PAID -> new OrderFact(ref, orderId, OrderStatus.PAID,
                    paymentId(((OrderPaid) event).paymentId()), null, null, null);
            case ORDER_FAILED -> {
                OrderFailed failed = (OrderFailed) event;
                yield new OrderFact(ref, orderId, OrderStatus.FAILED, paymentId(failed.paymentId()), failed.reason(), null,
                        null);
            }
            case ORDER_CANCELED -> {
                OrderCanceled canceled = (OrderCanceled) event;
                yield new OrderFact(ref, orderId, OrderStatus.CANCELED, paymentId(canceled.paymentId()),
                        canceled.reason(), null, null);
            }
            case ORDER_PARTIALLY_REFUNDED -> {
                OrderPartiallyRefunded partly = (OrderPartiallyRefunded) event;
                yield new OrderFact(ref, orderId, OrderStatus.PARTIALLY_REFUNDED, paymentId(partly.paymentId()), null,
                        null, new Money(partly.refundedAmount(), partly.currency()));
            }
            case ORDER_REFUNDED -> {
                OrderRefunded refunded = (OrderRefunded) event;
                yield new OrderFact(ref, orderId, OrderStatus.REFUNDED, paymentId(refunded.paymentId()), null, null,
                        new Money(refunded.refundedAmount(), refunded.currency()));
            }
            default -> throw new IllegalArgumentException("not an order event: " + ref.type());
        };
    }

    private static PaymentPurpose purpose(dev.payments.contracts.PaymentPurpose wire) {
        return switch (wire) {
            case ORDER -> PaymentPurpose.ORDER;
            case RENEWAL -> PaymentPurpose.RENEWAL;
        };
    }

    private static PaymentId paymentId(UUID value) {
        return value == null ? null : new PaymentId(value);
    }
}
