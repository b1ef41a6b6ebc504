package dev.payments.contracts;

import java.time.Instant;
import java.util.UUID;

/**
 * The PG holds money for this payment that we must give back, and a cancel at the PG is owed until the PG confirms it
 * ({@link PaymentCanceled} follows). A durable fact, so a cancel that fails or whose answer is lost is retried by
 * reconciliation instead of forgotten (docs/decisions/cancel-owed.md).
 *
 * @param reason           why: {@code COMPENSATION} (the customer was told it failed, or the order can no longer be
 *                         paid), {@code LATE_APPROVAL} (the PG approved after we recorded FAILED or DECLINED),
 *                         {@code REFUNDED} (the member asked for a refund)
 * @param pgTransactionKey the PG's approval being cancelled, when known
 */
public record PaymentCancelOwed(UUID paymentId, UUID orderId, String memberId, long amount, String currency,
                                String reason, String pgTransactionKey, Instant owedAt, PaymentPurpose purpose) implements PaymentEvent {

    public PaymentCancelOwed {
        purpose = PaymentPurpose.orOrder(purpose);
    }
}
