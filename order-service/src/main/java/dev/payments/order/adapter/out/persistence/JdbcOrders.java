package dev.payments.order.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.order.application.Orders;
import dev.payments.order.domain.MemberId;
import dev.payments.order.domain.Order;
import dev.payments.order.domain.OrderId;
import dev.payments.order.domain.OrderStatus;
import dev.payments.order.domain.PaymentId;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcOrders implements Orders {

    private static final String COLUMNS =
            "id, member_id, amount, currency, order_name, status, payment_id, status_reason, refunded_amount, created_at, "
                    + "updated_at";

    private final JdbcClient jdbc;

    JdbcOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void insert(Order order) {
        jdbc.sql("INSERT INTO orders (" + COLUMNS + ") VALUES (:id, :memberId, :amount, :currency, :orderName, "
                        + ":status, :paymentId, :statusReason, :refundedAmount, :createdAt, :updatedAt)")
                .param("id", order.id().value())
                .param("memberId", order.memberId().value())
                .param("amount", order.price().amount())
                .param("currency", order.price().currency())
                .param("orderName", order.orderName())
                .param("status", order.status().name())
                .param("paymentId", order.paymentId().map(PaymentId::value).orElse(null))
                .param("statusReason", order.statusReason().orElse(null))
                .param("refundedAmount", refundedAmount(order))
                .param("createdAt", Timestamp.from(order.createdAt()))
                .param("updatedAt", Timestamp.from(order.updatedAt()))
                .update();
    }

    @Override
    public void update(Order order) {
        int updated = jdbc.sql("""
                        UPDATE orders SET status = :status, payment_id = :paymentId, status_reason = :statusReason,
                               refunded_amount = :refundedAmount, updated_at = :updatedAt
                        WHERE id = :id
                        """)
                .param("id", order.id().value())
                .param("status", order.status().name())
                .param("paymentId", order.paymentId().map(PaymentId::value).orElse(null))
                .param("statusReason", order.statusReason().orElse(null))
                .param("refundedAmount", refundedAmount(order))
                .param("updatedAt", Timestamp.from(order.updatedAt()))
                .update();
        if (updated != 1) {
            throw new IllegalStateException("Order " + order.id() + " vanished while being updated");
        }
    }

    @Override
    public Optional<Order> findById(OrderId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE id = :id")
                .param("id", id.value())
                .query((rs, row) -> map(rs))
                .optional();
    }

    @Override
    public Optional<Order> lockById(OrderId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM orders WHERE id = :id FOR UPDATE")
                .param("id", id.value())
                .query((rs, row) -> map(rs))
                .optional();
    }

    /** The refunded amount in the order's currency (the only one its refunds can have); 0 for nothing. */
    private static long refundedAmount(Order order) {
        return order.refunded().map(Money::amount).orElse(0L);
    }

    private static Order map(ResultSet rs) throws SQLException {
        UUID paymentId = rs.getObject("payment_id", UUID.class);
        long refunded = rs.getLong("refunded_amount");
        String currency = rs.getString("currency");
        return Order.restore(
                new OrderId(rs.getObject("id", UUID.class)),
                new MemberId(rs.getString("member_id")),
                new Money(rs.getLong("amount"), currency),
                rs.getString("order_name"),
                rs.getTimestamp("created_at").toInstant(),
                OrderStatus.valueOf(rs.getString("status")),
                paymentId == null ? null : new PaymentId(paymentId),
                rs.getString("status_reason"),
                refunded == 0 ? null : new Money(refunded, currency),
                rs.getTimestamp("updated_at").toInstant());
    }
}
