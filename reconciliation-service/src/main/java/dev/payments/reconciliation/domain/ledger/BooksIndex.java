package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Look-ups over our books, built once per slice of the ledger audit. */
final class BooksIndex {

    private final Map<String, PaymentView> byTransactionKey = new HashMap<>();
    private final Map<String, PaymentView> byPaymentKey = new HashMap<>();
    private final Map<OrderId, List<PaymentView>> byOrder = new HashMap<>();
    private final Map<OrderId, OrderView> orders = new HashMap<>();
    private final Map<PaymentId, Incident> incidentsByPayment = new HashMap<>();
    private final Map<String, Incident> incidentsByTransaction = new HashMap<>();
    private final Map<PaymentId, List<RefundView>> refunds = new HashMap<>();

    BooksIndex(LedgerBooks books) {
        for (RefundView r : books.refunds()) {
            refunds.computeIfAbsent(r.paymentId(), k -> new ArrayList<>()).add(r);
        }
        for (PaymentView p : books.payments()) {
            if (p.pgTransactionKey() != null) {
                byTransactionKey.put(p.pgTransactionKey(), p);
            }
            if (p.paymentKey() != null) {
                byPaymentKey.put(p.paymentKey(), p);
            }
            byOrder.computeIfAbsent(p.orderId(), k -> new ArrayList<>()).add(p);
        }
        // Latest attempt first: an order's newest payment is the likeliest to be the one the PG approved.
        byOrder.values().forEach(list -> list.sort(Comparator.comparing((PaymentView p) -> p.bookkeeping().firstSeenAt()).reversed()));
        books.orders().forEach(o -> orders.put(o.orderId(), o));
        for (Incident i : books.incidents()) {
            if (i.paymentId() != null) {
                incidentsByPayment.putIfAbsent(i.paymentId(), i);
            }
            if (i.pgTransactionKey() != null) {
                incidentsByTransaction.putIfAbsent(i.pgTransactionKey(), i);
            }
        }
    }

    /** By transaction key, else by the PG's payment key, else the order's newest payment not explained otherwise. */
    PaymentView paymentFor(PgTransaction approval, Optional<OrderId> orderId, Set<PaymentId> used) {
        PaymentView byKey = byTransactionKey.get(approval.transactionKey());
        if (byKey != null) {
            return byKey;
        }
        if (approval.paymentKey() != null) {
            PaymentView byPgKey = byPaymentKey.get(approval.paymentKey());
            if (byPgKey != null && !used.contains(byPgKey.paymentId())) {
                return byPgKey;
            }
        }
        return orderId.flatMap(id -> byOrder.getOrDefault(id, List.of()).stream()
                        .filter(p -> !used.contains(p.paymentId()))
                        .filter(p -> p.pgTransactionKey() == null)
                        .filter(p -> p.paymentKey() == null || p.paymentKey().equals(approval.paymentKey()))
                        .findFirst())
                .orElse(null);
    }

    OrderView order(OrderId orderId) {
        return orders.get(orderId);
    }

    /** What the payment's succeeded refunds gave back. */
    long refunded(PaymentId payment) {
        return refunds.getOrDefault(payment, List.of()).stream()
                .filter(r -> r.status() == RefundView.Status.SUCCEEDED).mapToLong(r -> r.amount().amount()).sum();
    }

    /** A refund of the payment whose PG answer is not known yet: payment-service's settle is on it. */
    boolean refundsInFlight(PaymentId payment) {
        return refunds.getOrDefault(payment, List.of()).stream().anyMatch(r -> r.status().inFlight());
    }

    /**
     * Another payment of the order explains an approval already: matched to one in this slice, or recorded as
     * approved by the PG under another transaction (an approval of an older or later slice).
     */
    boolean accountedFor(OrderId orderId, PgTransaction approval, Set<PaymentId> used) {
        return byOrder.getOrDefault(orderId, List.of()).stream().anyMatch(p -> used.contains(p.paymentId())
                || p.status().pgApproved() && p.pgTransactionKey() != null
                && !p.pgTransactionKey().equals(approval.transactionKey()));
    }

    Incident incidentFor(PaymentView payment, String transactionKey) {
        Incident byPayment = payment == null ? null : incidentsByPayment.get(payment.paymentId());
        return byPayment != null ? byPayment : incidentsByTransaction.get(transactionKey);
    }
}
