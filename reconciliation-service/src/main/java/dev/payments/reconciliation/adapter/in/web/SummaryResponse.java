package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.domain.queries.BooksSummary;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts by state and the terms of the ledger identity on our side: {@code approvals} (payments the PG approved:
 * APPROVED + CANCELED), {@code paidOrders}, {@code cancellations}; {@code unresolved} = UNKNOWN + REQUESTED.
 * Order and payment events travel on different topics, so the two sides may briefly disagree.
 */
record SummaryResponse(Counts payments, Counts orders, long approvals, long paidOrders, long cancellations,
                       long unknown, long unresolved, long conflicts) {

    record Counts(long total, Map<String, Long> byStatus) {
    }

    static SummaryResponse of(BooksSummary summary) {
        Map<String, Long> payments = new LinkedHashMap<>();
        summary.payments().forEach((status, n) -> payments.put(status.name(), n));
        Map<String, Long> orders = new LinkedHashMap<>();
        summary.orders().forEach((status, n) -> orders.put(status.name(), n));
        return new SummaryResponse(new Counts(summary.totalPayments(), payments),
                new Counts(summary.totalOrders(), orders), summary.approvals(), summary.paidOrders(),
                summary.cancellations(), summary.unknown(),
                summary.unresolved(), summary.conflicts());
    }
}
