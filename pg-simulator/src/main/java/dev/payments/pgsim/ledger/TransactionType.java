package dev.payments.pgsim.ledger;

/** The two kinds of money movement on the PG's books. */
public enum TransactionType {
    APPROVE,
    CANCEL
}
