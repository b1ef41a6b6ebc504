package dev.payments.payment.domain;

import java.time.Instant;

/** One cancel on the PG's books for a payment (an element of Toss's {@code cancels[]}). */
public record PgCancel(String transactionKey, long amount, String reason, Instant canceledAt) {
}
