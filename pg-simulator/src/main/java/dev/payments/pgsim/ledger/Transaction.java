package dev.payments.pgsim.ledger;

import java.time.Instant;

/** One line of the PG's books; amounts are positive KRW, the type says the direction. */
public record Transaction(
        String transactionKey,
        String paymentKey,
        String orderId,
        TransactionType type,
        long amount,
        Instant transactedAt) {

    public static final String CURRENCY = "KRW";
}
