package dev.payments.pgsim.ledger;

import java.time.Instant;

/** One cancellation of a payment (the simulator only cancels in full). */
public record Cancel(long cancelAmount, Instant canceledAt, String transactionKey, String cancelReason) {
}
