package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;

import java.util.List;

/**
 * Our side of the ledger, as far as one audit needs it: the payments and orders the PG's transactions name, our
 * approvals inside the audited window, and every incident record.
 */
public record LedgerBooks(List<PaymentView> payments, List<OrderView> orders, List<Incident> incidents) {

    public LedgerBooks {
        payments = List.copyOf(payments);
        orders = List.copyOf(orders);
        incidents = List.copyOf(incidents);
    }
}
