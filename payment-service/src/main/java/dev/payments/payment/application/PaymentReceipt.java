package dev.payments.payment.application;

import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.Payment;

import java.time.Instant;
import java.util.UUID;

/**
 * The answer a confirm gave the customer, stored with the idempotency key so a repeated request gets the same one.
 *
 * @param result what the customer was told: APPROVED, DECLINED, PENDING or FAILED
 */
public record PaymentReceipt(UUID paymentId, UUID orderId, CustomerNotice result, long amount, String currency,
                             String pgTransactionKey, Instant approvedAt, String code, String message) {

    public static PaymentReceipt of(Payment payment, CustomerNotice result, String code, String message) {
        return new PaymentReceipt(payment.id().value(), payment.orderId().value(), result, payment.money().amount(),
                payment.money().currency(), payment.pgTransactionKey(), payment.approvedAt(), code, message);
    }

    public static PaymentReceipt inFlight(UUID paymentId, UUID orderId) {
        return new PaymentReceipt(paymentId, orderId, CustomerNotice.PENDING, 0, null, null, null, "IN_FLIGHT",
                "The first request with this key is still being processed");
    }
}
