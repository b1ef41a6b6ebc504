package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.domain.Refund;

import java.time.Instant;
import java.util.UUID;

/**
 * A refund and the payment's amounts after it.
 *
 * @param paymentRefunded   what the payment's succeeded refunds gave back
 * @param paymentRefundable what is left to refund (refunds in flight already taken off)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RefundView(UUID refundId, UUID paymentId, long amount, String currency, String status, String reason,
                  String requester, String pgTransactionKey, String failureCode, Instant requestedAt,
                  Instant updatedAt, long paymentAmount, long paymentRefunded, long paymentRefundable) {

    static RefundView of(Refund r, Refunds.RefundAmounts amounts) {
        return new RefundView(r.id().value(), r.paymentId().value(), r.money().amount(), r.money().currency(),
                r.status().name(), r.reason(), r.requester().name(), r.pgTransactionKey(), r.failureCode(),
                r.requestedAt(), r.updatedAt(), r.paymentAmount(), amounts.refunded(), amounts.refundable());
    }
}
