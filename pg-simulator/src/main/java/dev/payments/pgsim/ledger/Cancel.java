package dev.payments.pgsim.ledger;

import java.time.Instant;

/**
 * One cancellation of a payment, whole or partial (Toss's {@code cancels[]} element).
 *
 * @param refundableAmount what was left to cancel after this one (Toss's {@code refundableAmount})
 * @param idempotencyKey   the Idempotency-Key the cancel was sent with, or null: a repeat of the key is answered with
 *                         this cancel instead of booking another
 */
public record Cancel(long cancelAmount, Instant canceledAt, String transactionKey, String cancelReason,
                     long refundableAmount, String idempotencyKey) {
}
