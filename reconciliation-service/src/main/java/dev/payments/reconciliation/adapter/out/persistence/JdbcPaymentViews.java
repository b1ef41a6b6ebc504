package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.domain.projection.MemberId;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

@Repository
class JdbcPaymentViews implements PaymentViews {

    private static final String COLUMNS = """
            payment_id, order_id, member_id, amount, currency, status, status_reason, payment_key, pg_transaction_key,
            approved_at, canceled_at, last_event_id, last_event_type, last_event_at, first_seen_at, updated_at,
            events_applied, conflicts, purpose""";

    private static final RowMapper<PaymentView> MAPPER = (row, n) -> new PaymentView(
            new PaymentId(uuid(row, "payment_id")), new OrderId(uuid(row, "order_id")),
            new MemberId(row.getString("member_id")), new Money(row.getLong("amount"), row.getString("currency")),
            PaymentPurpose.valueOf(row.getString("purpose")), PaymentStatus.valueOf(row.getString("status")), row.getString("status_reason"),
            row.getString("payment_key"), row.getString("pg_transaction_key"), instant(row, "approved_at"),
            instant(row, "canceled_at"), Rows.bookkeeping(row));

    private final JdbcClient jdbc;

    JdbcPaymentViews(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<PaymentView> find(PaymentId paymentId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payment_view WHERE payment_id = :id")
                .param("id", paymentId.value()).query(MAPPER).optional();
    }

    @Override
    public Optional<PaymentView> lock(PaymentId paymentId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payment_view WHERE payment_id = :id FOR UPDATE")
                .param("id", paymentId.value()).query(MAPPER).optional();
    }

    @Override
    public void insert(PaymentView view) {
        jdbc.sql("INSERT INTO payment_view (" + COLUMNS + """
                        ) VALUES (:paymentId, :orderId, :memberId, :amount, :currency, :status, :statusReason,
                        :paymentKey, :pgTransactionKey, :approvedAt, :canceledAt, :lastEventId, :lastEventType, :lastEventAt,
                        :firstSeenAt, :updatedAt, :eventsApplied, :conflicts, :purpose)""")
                .params(params(view)).update();
    }

    @Override
    public void update(PaymentView view) {
        int updated = jdbc.sql("""
                        UPDATE payment_view SET status = :status, status_reason = :statusReason, payment_key = :paymentKey,
                            pg_transaction_key = :pgTransactionKey, approved_at = :approvedAt, canceled_at = :canceledAt,
                            last_event_id = :lastEventId, last_event_type = :lastEventType, last_event_at = :lastEventAt,
                            updated_at = :updatedAt, events_applied = :eventsApplied, conflicts = :conflicts
                        WHERE payment_id = :paymentId""")
                .params(params(view)).update();
        if (updated != 1) {
            throw new IllegalStateException("payment view " + view.paymentId() + " vanished while locked");
        }
    }

    @Override
    public List<PaymentView> byOrder(OrderId orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payment_view WHERE order_id = :orderId ORDER BY first_seen_at, payment_id")
                .param("orderId", orderId.value()).query(MAPPER).list();
    }

    /** The payments of these orders (for the ledger audit; not a port method: only this package needs it). */
    List<PaymentView> byOrders(List<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT " + COLUMNS + " FROM payment_view WHERE order_id IN (:ids)")
                .param("ids", orderIds).query(MAPPER).list();
    }

    /** Payments the PG approved in {@code [from, to)}, whatever became of them since. */
    List<PaymentView> approvedBetween(Instant from, Instant to) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payment_view WHERE approved_at >= :from AND approved_at < :to")
                .param("from", timestamp(from)).param("to", timestamp(to)).query(MAPPER).list();
    }

    @Override
    public Map<PaymentStatus, Long> countByStatus() {
        Map<PaymentStatus, Long> counts = new EnumMap<>(PaymentStatus.class);
        jdbc.sql("SELECT status, count(*) AS n FROM payment_view GROUP BY status")
                .query((row, n) -> counts.put(PaymentStatus.valueOf(row.getString("status")), row.getLong("n")))
                .list();
        return counts;
    }

    @Override
    public long conflicts() {
        return jdbc.sql("SELECT coalesce(sum(conflicts), 0) FROM payment_view").query(Long.class).single();
    }

    private static Map<String, Object> params(PaymentView view) {
        Map<String, Object> params = new HashMap<>();
        params.put("paymentId", view.paymentId().value());
        params.put("orderId", view.orderId().value());
        params.put("purpose", view.purpose().name());
        params.put("memberId", view.memberId().value());
        params.put("amount", view.amount().amount());
        params.put("currency", view.amount().currency());
        params.put("status", view.status().name());
        params.put("statusReason", view.statusReason());
        params.put("paymentKey", view.paymentKey());
        params.put("pgTransactionKey", view.pgTransactionKey());
        params.put("approvedAt", timestamp(view.approvedAt()));
        params.put("canceledAt", timestamp(view.canceledAt()));
        Rows.putBookkeeping(params, view.bookkeeping());
        return params;
    }
}
