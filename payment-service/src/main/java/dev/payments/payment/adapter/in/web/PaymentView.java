package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.payment.domain.Payment;

import java.time.Instant;
import java.util.UUID;

@JsonInclude(JsonInclude.Include.NON_NULL)
record PaymentView(UUID paymentId, UUID orderId, String memberId, long amount, String currency, String paymentKey,
                   String status, String customerNotice, String pgTransactionKey, Instant approvedAt,
                   String failureCode, String failureMessage, Instant requestedAt, Instant updatedAt) {

    static PaymentView of(Payment p) {
        return new PaymentView(p.id().value(), p.orderId().value(), p.memberId().value(), p.money().amount(),
                p.money().currency(), p.paymentKey(), p.status().name(), p.customerNotice().name(),
                p.pgTransactionKey(), p.approvedAt(), p.failureCode(), p.failureMessage(), p.requestedAt(),
                p.updatedAt());
    }
}
