package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Objects;

/**
 * One PG transaction (or one approval of ours) that the ledger identity cannot account for.
 *
 * @param transactionKey the PG's APPROVE transaction, or our recorded one for {@link MismatchReason#NO_PG_APPROVAL}
 * @param paymentId      our payment it concerns, or null when there is none
 * @param at             when the PG booked it (or when we recorded the approval)
 */
public record LedgerMismatch(String transactionKey, String orderId, String paymentKey, PaymentId paymentId,
                             long amount, String currency, MismatchReason reason, String detail, Instant at) {

    public LedgerMismatch {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(at, "at");
    }
}
