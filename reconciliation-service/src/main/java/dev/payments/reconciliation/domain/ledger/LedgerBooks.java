package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;

import java.util.List;

/**
 * Our side of the ledger, as far as one audit needs it: the payments and orders the PG's transactions name, our
 * approvals inside the audited window, every incident record, and the refunds of those payments.
 */
public record LedgerBooks(List<PaymentView> payments, List<OrderView> orders, List<Incident> incidents,
                          List<RefundView> refunds) {

    public LedgerBooks {
        payments = List.copyOf(payments);
        orders = List.copyOf(orders);
        incidents = List.copyOf(incidents);
        refunds = List.copyOf(refunds);
    }

    /** Books without refunds. */
    public LedgerBooks(List<PaymentView> payments, List<OrderView> orders, List<Incident> incidents) {
        this(payments, orders, incidents, List.of());
    }
}
