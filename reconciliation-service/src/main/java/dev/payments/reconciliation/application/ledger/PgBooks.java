package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.time.Instant;
import java.util.List;

/** What reconciliation reads from the PG itself (port): its books, and an order's state for diagnosis. */
public interface PgBooks {

    /**
     * Every APPROVE and CANCEL with {@code from <= transactedAt < to}, all pages.
     *
     * @throws PgUnavailableException if the PG could not be read
     */
    List<PgTransaction> transactions(Instant from, Instant to);

    /**
     * The PG's state of the order's payment: DONE, CANCELED, ABORTED, EXPIRED, READY, IN_PROGRESS, or NOT_FOUND.
     *
     * @throws PgUnavailableException if the PG could not be asked
     */
    String stateOfOrder(OrderId orderId);
}
