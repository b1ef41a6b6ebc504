package dev.payments.pgsim.ledger;

import java.util.List;

/** One page of the transaction listing; {@code nextCursor} is the last key when {@code hasNext}. */
public record TransactionPage(List<Transaction> transactions, boolean hasNext, String nextCursor) {

    public TransactionPage {
        transactions = List.copyOf(transactions);
    }
}
