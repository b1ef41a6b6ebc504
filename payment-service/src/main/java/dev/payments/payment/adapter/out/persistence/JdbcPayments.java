package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.payment.application.Payments;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcPayments implements Payments {

    static final String COLUMNS = """
            payment_id, order_id, member_id, amount, currency, payment_key, status, customer_notice,
            pg_transaction_key, approved_at, failure_code, failure_message, requested_at, updated_at, purpose
            """;

    static final RowMapper<Payment> ROW = (rs, i) -> Payment.restore(
            new PaymentId(rs.getObject("payment_id", UUID.class)),
            new OrderId(rs.getObject("order_id", UUID.class)),
            new MemberId(rs.getString("member_id")),
            new Money(rs.getLong("amount"), rs.getString("currency")),
            rs.getString("payment_key"),
            instant(rs.getTimestamp("requested_at")),
            PaymentPurpose.valueOf(rs.getString("purpose")),
            PaymentStatus.valueOf(rs.getString("status")),
            CustomerNotice.valueOf(rs.getString("customer_notice")),
            rs.getString("pg_transaction_key"),
            instant(rs.getTimestamp("approved_at")),
            rs.getString("failure_code"),
            rs.getString("failure_message"),
            instant(rs.getTimestamp("updated_at")));

    private final JdbcClient jdbc;

    JdbcPayments(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void insert(Payment payment) {
        jdbc.sql("INSERT INTO payments (" + COLUMNS + """
                        ) VALUES (:id, :orderId, :memberId, :amount, :currency, :paymentKey, :status, :notice,
                        :txKey, :approvedAt, :failureCode, :failureMessage, :requestedAt, :updatedAt, :purpose)
                        """)
                .params(params(payment))
                .update();
    }

    @Override
    public void update(Payment payment) {
        int updated = jdbc.sql("""
                        UPDATE payments SET status = :status, customer_notice = :notice, pg_transaction_key = :txKey,
                               approved_at = :approvedAt, failure_code = :failureCode,
                               failure_message = :failureMessage, updated_at = :updatedAt
                        WHERE payment_id = :id
                        """)
                .params(params(payment))
                .update();
        if (updated != 1) {
            throw new IllegalStateException("Payment " + payment.id() + " vanished during an update");
        }
    }

    @Override
    public Optional<Payment> findById(PaymentId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payments WHERE payment_id = :id")
                .param("id", id.value()).query(ROW).optional();
    }

    @Override
    public Optional<Payment> lockById(PaymentId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payments WHERE payment_id = :id FOR UPDATE")
                .param("id", id.value()).query(ROW).optional();
    }

    @Override
    public boolean hasLivePayment(OrderId orderId) {
        return jdbc.sql("""
                        SELECT count(*) FROM payments
                        WHERE order_id = :orderId AND status IN ('REQUESTED', 'UNKNOWN', 'APPROVED')
                        """)
                .param("orderId", orderId.value()).query(Long.class).single() > 0;
    }

    @Override
    public Optional<Payment> findLatestByOrder(OrderId orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payments WHERE order_id = :orderId ORDER BY requested_at DESC LIMIT 1")
                .param("orderId", orderId.value()).query(ROW).optional();
    }

    @Override
    public boolean paymentKeyInUse(String paymentKey) {
        // The same condition as the partial unique index payments_one_per_pg_key (V4).
        return jdbc.sql("""
                        SELECT count(*) FROM payments WHERE payment_key = :key
                          AND NOT (status = 'FAILED' AND failure_code IN ('PG_CONNECT_FAILED', 'PG_AUTH_FAILED'))
                        """)
                .param("key", paymentKey).query(Long.class).single() > 0;
    }

    @Override
    public Optional<Payment> findLatestByPaymentKey(String paymentKey) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM payments WHERE payment_key = :key ORDER BY requested_at DESC LIMIT 1")
                .param("key", paymentKey).query(ROW).optional();
    }

    private static java.util.Map<String, Object> params(Payment p) {
        java.util.Map<String, Object> params = new java.util.HashMap<>();
        params.put("id", p.id().value());
        params.put("orderId", p.orderId().value());
        params.put("memberId", p.memberId().value());
        params.put("amount", p.money().amount());
        params.put("currency", p.money().currency());
        params.put("paymentKey", p.paymentKey());
        params.put("status", p.status().name());
        params.put("notice", p.customerNotice().name());
        params.put("txKey", p.pgTransactionKey());
        params.put("approvedAt", timestamp(p.approvedAt()));
        params.put("failureCode", p.failureCode());
        params.put("failureMessage", p.failureMessage());
        params.put("requestedAt", timestamp(p.requestedAt()));
        params.put("updatedAt", timestamp(p.updatedAt()));
        params.put("purpose", p.purpose().name());
        return params;
    }

    static Timestamp timestamp(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
