package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.reconciliation.application.ledger.LedgerBooksReader;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** The projection's side of the ledger audit, read in one repeatable snapshot so both halves agree. */
@Repository
class JdbcLedgerBooks implements LedgerBooksReader {

    /** Keeps each IN list well below PostgreSQL's bind-parameter limit. */
    private static final int CHUNK = 1000;

    private final JdbcPaymentViews payments;
    private final JdbcOrderViews orders;
    private final JdbcRefundViews refunds;

    JdbcLedgerBooks(JdbcPaymentViews payments, JdbcOrderViews orders, JdbcRefundViews refunds) {
        this.payments = payments;
        this.orders = orders;
        this.refunds = refunds;
    }

    @Override
    @Transactional(readOnly = true, isolation = Isolation.REPEATABLE_READ)
    public Slice read(Set<OrderId> orderIds, Instant approvedFrom, Instant approvedTo) {
        Map<UUID, PaymentView> found = new LinkedHashMap<>();
        for (List<UUID> chunk : chunks(orderIds.stream().map(OrderId::value).toList())) {
            payments.byOrders(chunk).forEach(p -> found.put(p.paymentId().value(), p));
        }
        payments.approvedBetween(approvedFrom, approvedTo).forEach(p -> found.put(p.paymentId().value(), p));
        Set<UUID> allOrders = new LinkedHashSet<>();
        orderIds.forEach(id -> allOrders.add(id.value()));
        found.values().forEach(p -> allOrders.add(p.orderId().value()));
        List<OrderView> orderViews = new ArrayList<>();
        for (List<UUID> chunk : chunks(new ArrayList<>(allOrders))) {
            orderViews.addAll(orders.byIds(chunk));
        }
        List<dev.payments.reconciliation.domain.projection.RefundView> refundViews = new ArrayList<>();
        for (List<UUID> chunk : chunks(new ArrayList<>(found.keySet()))) {
            refundViews.addAll(refunds.byPayments(chunk));
        }
        return new Slice(new ArrayList<>(found.values()), orderViews, refundViews);
    }

    private static List<List<UUID>> chunks(List<UUID> ids) {
        List<List<UUID>> chunks = new ArrayList<>();
        for (int i = 0; i < ids.size(); i += CHUNK) {
            chunks.add(ids.subList(i, Math.min(ids.size(), i + CHUNK)));
        }
        return chunks;
    }
}
