package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.projection.RefundViews;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcRefundViews implements RefundViews {

    private static final String COLUMNS =
            "refund_id, payment_id, order_id, amount, currency, status, pg_transaction_key, last_event_at";

    private static final RowMapper<RefundView> MAPPER = (row, n) -> new RefundView(
            row.getObject("refund_id", UUID.class), new PaymentId(row.getObject("payment_id", UUID.class)),
            new OrderId(row.getObject("order_id", UUID.class)), new Money(row.getLong("amount"), row.getString("currency")),
            RefundView.Status.valueOf(row.getString("status")), row.getString("pg_transaction_key"),
            row.getTimestamp("last_event_at").toInstant());

    private final JdbcClient jdbc;

    JdbcRefundViews(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<RefundView> find(UUID refundId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM refund_view WHERE refund_id = :id")
                .param("id", refundId).query(MAPPER).optional();
    }

    @Override
    public Optional<RefundView> lock(UUID refundId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM refund_view WHERE refund_id = :id FOR UPDATE")
                .param("id", refundId).query(MAPPER).optional();
    }

    @Override
    public void insert(RefundView view) {
        jdbc.sql("INSERT INTO refund_view (" + COLUMNS + ") VALUES (:refundId, :paymentId, :orderId, :amount, "
                        + ":currency, :status, :pgTransactionKey, :lastEventAt)")
                .params(params(view)).update();
    }

    @Override
    public void update(RefundView view) {
        jdbc.sql("UPDATE refund_view SET status = :status, pg_transaction_key = :pgTransactionKey, "
                        + "last_event_at = :lastEventAt WHERE refund_id = :refundId")
                .params(params(view)).update();
    }

    @Override
    public List<RefundView> ofPayment(PaymentId paymentId) {
        return jdbc.sql("SELECT " + COLUMNS
                        + " FROM refund_view WHERE payment_id = :id ORDER BY last_event_at, refund_id")
                .param("id", paymentId.value()).query(MAPPER).list();
    }

    /** The refunds of these payments (for the ledger audit; not a port method: only this package needs it). */
    List<RefundView> byPayments(List<UUID> paymentIds) {
        if (paymentIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT " + COLUMNS + " FROM refund_view WHERE payment_id IN (:ids)")
                .param("ids", paymentIds).query(MAPPER).list();
    }

    private static Map<String, Object> params(RefundView v) {
        Map<String, Object> params = new java.util.HashMap<>();
        params.put("refundId", v.refundId());
        params.put("paymentId", v.paymentId().value());
        params.put("orderId", v.orderId().value());
        params.put("amount", v.amount().amount());
        params.put("currency", v.amount().currency());
        params.put("status", v.status().name());
        params.put("pgTransactionKey", v.pgTransactionKey());
        params.put("lastEventAt", Timestamp.from(v.lastEventAt()));
        return params;
    }
}
