package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.payment.application.PayableOrders;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PayableOrder;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcPayableOrders implements PayableOrders {

    private static final RowMapper<PayableOrder> ROW = (rs, i) -> new PayableOrder(
            new OrderId(rs.getObject("order_id", UUID.class)),
            new MemberId(rs.getString("member_id")),
            new Money(rs.getLong("amount"), rs.getString("currency").trim()),
            PayableOrder.Status.valueOf(rs.getString("status")));

    private final JdbcClient jdbc;

    JdbcPayableOrders(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Optional<PayableOrder> lock(OrderId orderId) {
        return jdbc.sql("SELECT order_id, member_id, amount, currency, status FROM payable_orders WHERE order_id = :id FOR UPDATE")
                .param("id", orderId.value()).query(ROW).optional();
    }

    @Override
    public Optional<PayableOrder> find(OrderId orderId) {
        return jdbc.sql("SELECT order_id, member_id, amount, currency, status FROM payable_orders WHERE order_id = :id")
                .param("id", orderId.value()).query(ROW).optional();
    }

    @Override
    public void save(PayableOrder order) {
        jdbc.sql("""
                        INSERT INTO payable_orders (order_id, member_id, amount, currency, status)
                        VALUES (:id, :memberId, :amount, :currency, :status)
                        ON CONFLICT (order_id) DO UPDATE SET status = EXCLUDED.status, updated_at = clock_timestamp()
                        """)
                .param("id", order.orderId().value())
                .param("memberId", order.memberId().value())
                .param("amount", order.money().amount())
                .param("currency", order.money().currency())
                .param("status", order.status().name())
                .update();
    }
}
