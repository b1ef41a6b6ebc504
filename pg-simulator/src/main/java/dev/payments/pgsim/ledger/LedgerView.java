package dev.payments.pgsim.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Read-only view of the PG's books, for tests and drills that audit against them. */
public interface LedgerView {

    Optional<Payment> payment(String paymentKey);

    /** The order's payment that moved money if any, else its most recent attempt. */
    Optional<Payment> paymentForOrder(String orderId);

    List<Payment> payments();

    /** Every APPROVE and CANCEL, in booking order (which is also time order). */
    List<Transaction> transactions();

    TransactionPage transactions(Instant from, Instant to, String startingAfter, int limit);
}
