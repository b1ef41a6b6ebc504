package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;

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

    /** @param refunds the refunds of those payments */
    record Slice(List<PaymentView> payments, List<OrderView> orders, List<RefundView> refunds) {
    }
}
