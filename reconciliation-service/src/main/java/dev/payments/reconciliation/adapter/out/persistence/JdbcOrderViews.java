package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.domain.projection.MemberId;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

@Repository
class JdbcOrderViews implements OrderViews {

    private static final String COLUMNS = """
            order_id, member_id, amount, currency, order_name, status, status_reason, payment_id, refunded_amount,
            refunded_currency, last_event_id, last_event_type, last_event_at, first_seen_at, updated_at, events_applied,
            conflicts""";

    private static final RowMapper<OrderView> MAPPER = (row, n) -> {
        String memberId = row.getString("member_id");
        OrderDetails details = memberId == null ? null : new OrderDetails(new MemberId(memberId),
                new Money(row.getLong("amount"), row.getString("currency")), row.getString("order_name"));
        UUID paymentId = uuid(row, "payment_id");
        long refunded = row.getLong("refunded_amount");
        return new OrderView(new OrderId(uuid(row, "order_id")), details,
                OrderStatus.valueOf(row.getString("status")), row.getString("status_reason"),
                paymentId == null ? null : new PaymentId(paymentId),
                refunded == 0 ? null : new Money(refunded, row.getString("refunded_currency")), Rows.bookkeeping(row));
    };

    private final JdbcClient jdbc;

    JdbcOrderViews(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<OrderView> find(OrderId orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM order_view WHERE order_id = :id")
                .param("id", orderId.value()).query(MAPPER).optional();
    }

    @Override
    public Optional<OrderView> lock(OrderId orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM order_view WHERE order_id = :id FOR UPDATE")
                .param("id", orderId.value()).query(MAPPER).optional();
    }

    @Override
    public void insert(OrderView view) {
        jdbc.sql("INSERT INTO order_view (" + COLUMNS + """
                        ) VALUES (:orderId, :memberId, :amount, :currency, :orderName, :status, :statusReason,
                        :paymentId, :refundedAmount, :refundedCurrency, :lastEventId, :lastEventType, :lastEventAt, :firstSeenAt, :updatedAt,
                        :eventsApplied, :conflicts)""")
                .params(params(view)).update();
    }

    @Override
    public void update(OrderView view) {
        int updated = jdbc.sql("""
                        UPDATE order_view SET member_id = :memberId, amount = :amount, currency = :currency,
                            order_name = :orderName, status = :status, status_reason = :statusReason,
                            payment_id = :paymentId, refunded_amount = :refundedAmount,
                            refunded_currency = :refundedCurrency, last_event_id = :lastEventId, last_event_type = :lastEventType,
                            last_event_at = :lastEventAt, updated_at = :updatedAt, events_applied = :eventsApplied,
                            conflicts = :conflicts
                        WHERE order_id = :orderId""")
                .params(params(view)).update();
        if (updated != 1) {
            throw new IllegalStateException("order view " + view.orderId() + " vanished while locked");
        }
    }

    /** The views of these orders (for the ledger audit). */
    List<OrderView> byIds(List<UUID> orderIds) {
        if (orderIds.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("SELECT " + COLUMNS + " FROM order_view WHERE order_id IN (:ids)")
                .param("ids", orderIds).query(MAPPER).list();
    }

    @Override
    public Map<OrderStatus, Long> countByStatus() {
        Map<OrderStatus, Long> counts = new EnumMap<>(OrderStatus.class);
        jdbc.sql("SELECT status, count(*) AS n FROM order_view GROUP BY status")
                .query((row, n) -> counts.put(OrderStatus.valueOf(row.getString("status")), row.getLong("n")))
                .list();
        return counts;
    }

    @Override
    public long conflicts() {
        return jdbc.sql("SELECT coalesce(sum(conflicts), 0) FROM order_view").query(Long.class).single();
    }

    private static Map<String, Object> params(OrderView view) {
        OrderDetails details = view.details();
        Map<String, Object> params = new HashMap<>();
        params.put("orderId", view.orderId().value());
        params.put("memberId", details == null ? null : details.memberId().value());
        params.put("amount", details == null ? null : details.amount().amount());
        params.put("currency", details == null ? null : details.amount().currency());
        params.put("orderName", details == null ? null : details.orderName());
        params.put("status", view.status().name());
        params.put("statusReason", view.statusReason());
        params.put("paymentId", view.paymentId() == null ? null : view.paymentId().value());
        params.put("refundedAmount", view.refunded() == null ? 0L : view.refunded().amount());
        params.put("refundedCurrency", view.refunded() == null ? null : view.refunded().currency());
        Rows.putBookkeeping(params, view.bookkeeping());
        return params;
    }
}
