package dev.payments.drills.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.drills.observe.Books.OrderState;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ledger identity over the drill's orders, each term counted from the sources (the PG's books, order-service,
 * payment-service, reconciliation's incidents): {@code PG approvals = PAID + cancellations + incidents + in flight +
 * unaccounted}. It holds when nothing is unaccounted, no order was approved twice and none is PAID without an
 * approval at the PG.
 *
 * @param lostOrders   up to 20 of the unaccounted orders
 * @param doubledOrders up to 20 of the orders approved more than once
 * @param reconciliationLedger reconciliation-service's own audit over its window, or null if it did not answer
 */
public record LedgerAudit(int orders, long pgApprovals, long pgCancels, long paidOrders, long cancellations,
                          long incidents, long inFlight, long lost, long doubled, long paidWithoutPgApproval,
                          long approvedPayments, long approvedButOrderNotPaid,
                          boolean holds, String identity, Map<String, Long> orderStatuses,
                          Map<String, Long> paymentStatuses, List<String> lostOrders, List<String> doubledOrders,
                          JsonNode reconciliationLedger, String reconciliationNote, List<JsonNode> incidentRecords) {

    private static final int LISTED = 20;

    /** @param incidents reconciliation's incident records for these orders */
    public static LedgerAudit of(Map<String, OrderState> states, List<JsonNode> incidents,
                                 JsonNode reconciliationLedger, String reconciliationNote) {
        Set<String> incidentOrders = new HashSet<>();
        incidents.forEach(i -> incidentOrders.add(i.path("orderId").asText()));
        long approvals = 0;
        long cancels = 0;
        long paid = 0;
        long cancellations = 0;
        long incidentCount = 0;
        long inFlight = 0;
        long paidWithoutApproval = 0;
        long approvedPayments = 0;
        long orderBehind = 0;
        List<String> lost = new ArrayList<>();
        List<String> doubled = new ArrayList<>();
        Map<String, Long> orderStatuses = new TreeMap<>();
        Map<String, Long> paymentStatuses = new TreeMap<>();
        for (OrderState s : states.values()) {
            orderStatuses.merge(String.valueOf(s.orderStatus()), 1L, Long::sum);
            paymentStatuses.merge(String.valueOf(s.paymentStatus()), 1L, Long::sum);
            approvals += s.pgApprovals();
            if ("APPROVED".equals(s.paymentStatus())) {
                approvedPayments++;
                if (s.orderBehind()) {
                    orderBehind++;
                }
            }
            cancels += s.pgCancels();
            int net = s.pgApprovals() - s.pgCancels();
            if (net > 1 || s.pgApprovals() > 1) {
                doubled.add(s.orderId());
            }
            boolean paidOrder = "PAID".equals(s.orderStatus()) || "APPROVED".equals(s.paymentStatus());
            if (s.pgApprovals() == 0) {
                if (paidOrder) {
                    paidWithoutApproval++;
                }
                continue;
            }
            // Each PG approval is accounted for by exactly one term, in this order.
            if (s.pgCancels() > 0) {
                cancellations++;
            } else if (paidOrder) {
                paid++;
            } else if (incidentOrders.contains(s.orderId())) {
                incidentCount++;
            } else if (s.unsettled()) {
                inFlight++;
            } else {
                lost.add(s.orderId());
            }
        }
        boolean holds = lost.isEmpty() && doubled.isEmpty() && paidWithoutApproval == 0;
        String identity = approvals + " PG approvals = " + paid + " PAID + " + cancellations + " cancellations + "
                + incidentCount + " incidents + " + inFlight + " in flight + " + lost.size() + " unaccounted";
        return new LedgerAudit(states.size(), approvals, cancels, paid, cancellations, incidentCount, inFlight,
                lost.size(), doubled.size(), paidWithoutApproval, approvedPayments, orderBehind, holds, identity,
                orderStatuses, paymentStatuses, firstOf(lost), firstOf(doubled), reconciliationLedger,
                reconciliationNote, firstOf(incidents));
    }

    private static <T> List<T> firstOf(List<T> list) {
        return list.subList(0, Math.min(LISTED, list.size()));
    }
}
