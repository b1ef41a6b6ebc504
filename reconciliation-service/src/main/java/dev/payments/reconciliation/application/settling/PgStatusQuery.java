package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.shared.OrderId;

/** The PG's own answer about one order (port), for telling apart a PG that is down from a cancel that fails. */
public interface PgStatusQuery {

    /**
     * The PG's state of the order's payment: DONE, CANCELED, ABORTED, EXPIRED, READY, IN_PROGRESS, or NOT_FOUND.
     *
     * @throws PgUnavailableException if the PG could not be asked
     */
    String stateOfOrder(OrderId orderId);
}
