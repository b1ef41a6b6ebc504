package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.OrderId;
import dev.payments.reconciliation.domain.OrderView;
import dev.payments.reconciliation.domain.PaymentView;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Reads the projection for the ledger audit (port). */
public interface LedgerBooksReader {

    /**
     * The payments of the given orders, plus every payment approved in {@code [approvedFrom, approvedTo)}, and the
     * orders of all of them.
     */
    Slice read(Set<OrderId> orderIds, Instant approvedFrom, Instant approvedTo);

    record Slice(List<PaymentView> payments, List<OrderView> orders) {
    }
}
