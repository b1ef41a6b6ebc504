package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentStatus;

import java.time.Instant;
import java.util.UUID;

@JsonInclude(JsonInclude.Include.NON_NULL)
record PaymentView(UUID paymentId, UUID orderId, String memberId, long amount, String currency, String paymentKey,
                   String status, String customerNotice, String pgTransactionKey, Instant approvedAt,
                   String failureCode, String failureMessage, Instant requestedAt, Instant updatedAt,
                   Long refundedAmount, Long refundableAmount) {

    static PaymentView of(Payment p) {
        return new PaymentView(p.id().value(), p.orderId().value(), p.memberId().value(), p.money().amount(),
                p.money().currency(), p.paymentKey(), p.status().name(), p.customerNotice().name(),
                p.pgTransactionKey(), p.approvedAt(), p.failureCode(), p.failureMessage(), p.requestedAt(),
                p.updatedAt(), null, null);
    }

    /**
     * With what its refunds gave back and what is left to refund (refunds in flight taken off; 0 unless APPROVED).
     */
    static PaymentView of(Payment p, Refunds.RefundAmounts amounts) {
        PaymentView view = of(p);
        long refundable = p.status() == PaymentStatus.APPROVED ? amounts.refundable() : 0;
        return new PaymentView(view.paymentId, view.orderId, view.memberId, view.amount, view.currency, view.paymentKey,
                view.status, view.customerNotice, view.pgTransactionKey, view.approvedAt, view.failureCode,
                view.failureMessage, view.requestedAt, view.updatedAt, amounts.refunded(), refundable);
    }
}
