package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.payment.application.PaymentReceipt;

import java.time.Instant;
import java.util.UUID;

/** Body of 200 (APPROVED) and 202 (PENDING). */
@JsonInclude(JsonInclude.Include.NON_NULL)
record PaymentResponse(UUID paymentId, UUID orderId, String status, Long amount, String currency,
                       String pgTransactionKey, Instant approvedAt, String message) {

    static PaymentResponse of(PaymentReceipt receipt) {
        return new PaymentResponse(receipt.paymentId(), receipt.orderId(), receipt.result().name(),
                receipt.currency() == null ? null : receipt.amount(), receipt.currency(), receipt.pgTransactionKey(),
                receipt.approvedAt(), receipt.message());
    }
}
