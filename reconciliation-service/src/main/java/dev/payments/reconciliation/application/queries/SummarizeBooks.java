package dev.payments.reconciliation.application.queries;

import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.domain.queries.BooksSummary;

/** Counts of payments and orders by state: our side of the ledger identity. */
public final class SummarizeBooks {

    private final PaymentViews payments;
    private final OrderViews orders;

    public SummarizeBooks(PaymentViews payments, OrderViews orders) {
        this.payments = payments;
        this.orders = orders;
    }

    public BooksSummary summarize() {
        return new BooksSummary(payments.countByStatus(), orders.countByStatus(),
                payments.conflicts() + orders.conflicts());
    }
}
