package dev.payments.reconciliation.domain.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of the PG's books: the ground truth the ledger audit checks ours against.
 *
 * @param orderId the order id the merchant (payment-service) gave the PG; ours are UUIDs, anything else is not ours
 * @param amount  positive; {@code type} gives the direction
 */
public record PgTransaction(String transactionKey, String paymentKey, String orderId, Type type, long amount,
                            String currency, Instant transactedAt) {

    /** The direction of the money. */
    public enum Type {
        /** The PG took the customer's money. */
        APPROVE,
        /** The PG gave it back. */
        CANCEL
    }

    public PgTransaction {
        Objects.requireNonNull(transactionKey, "transaction key");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(transactedAt, "transacted at");
    }
}
