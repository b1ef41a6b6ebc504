package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.Refund;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundStatus;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.payment.adapter.out.persistence.JdbcPayments.instant;
import static dev.payments.payment.adapter.out.persistence.JdbcPayments.timestamp;

@Repository
class JdbcRefunds implements Refunds {

    private static final String SELECT = """
            SELECT r.refund_id, r.payment_id, r.amount, r.currency, r.status, r.reason, r.requester, r.requested_by,
                   r.pg_transaction_key, r.failure_code, r.requested_at, r.updated_at,
                   p.order_id, p.member_id, p.amount AS payment_amount, p.purpose
            FROM refunds r JOIN payments p ON p.payment_id = r.payment_id
            """;

    private static final RowMapper<Refund> ROW = (rs, i) -> Refund.restore(
            new RefundId(rs.getObject("refund_id", UUID.class)),
            new PaymentId(rs.getObject("payment_id", UUID.class)),
            new OrderId(rs.getObject("order_id", UUID.class)),
            new MemberId(rs.getString("member_id")),
            new Money(rs.getLong("amount"), rs.getString("currency")),
            rs.getLong("payment_amount"),
            PaymentPurpose.valueOf(rs.getString("purpose")),
            rs.getString("reason"),
            Refund.Requester.valueOf(rs.getString("requester")),
            rs.getString("requested_by"),
            instant(rs.getTimestamp("requested_at")),
            RefundStatus.valueOf(rs.getString("status")),
            rs.getString("pg_transaction_key"),
            rs.getString("failure_code"),
            instant(rs.getTimestamp("updated_at")));

    private final JdbcClient jdbc;

    JdbcRefunds(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void insert(Refund refund) {
        jdbc.sql("""
                        INSERT INTO refunds (refund_id, payment_id, amount, currency, status, reason, requester,
                                             requested_by, pg_transaction_key, failure_code, requested_at, updated_at)
                        VALUES (:id, :paymentId, :amount, :currency, :status, :reason, :requester, :requestedBy,
                                :txKey, :failureCode, :requestedAt, :updatedAt)
                        """)
                .params(params(refund))
                .update();
    }

    @Override
    public void update(Refund refund) {
        int updated = jdbc.sql("""
                        UPDATE refunds SET status = :status, pg_transaction_key = :txKey, failure_code = :failureCode,
                               updated_at = :updatedAt
                        WHERE refund_id = :id
                        """)
                .params(params(refund))
                .update();
        if (updated != 1) {
            throw new IllegalStateException("Refund " + refund.id() + " vanished during an update");
        }
    }

    @Override
    public Optional<Refund> findById(RefundId id) {
        return jdbc.sql(SELECT + " WHERE r.refund_id = :id").param("id", id.value()).query(ROW).optional();
    }

    @Override
    public List<Refund> findByPayment(PaymentId paymentId) {
        return jdbc.sql(SELECT + " WHERE r.payment_id = :id ORDER BY r.requested_at, r.refund_id")
                .param("id", paymentId.value()).query(ROW).list();
    }

    @Override
    public boolean reserve(PaymentId paymentId, long amount) {
        // The condition is the check constraint's own (V8), so a refusal is an answer rather than an error that would
        // abort the caller's transaction; the constraint still stands behind it.
        return jdbc.sql("""
                        UPDATE payments SET refund_reserved = refund_reserved + :amount
                        WHERE payment_id = :id AND refunded_amount + refund_reserved + :amount <= amount
                        """)
                .param("amount", amount).param("id", paymentId.value()).update() == 1;
    }

    @Override
    public void book(PaymentId paymentId, long amount, RefundStatus before, RefundStatus after) {
        long released = before.holdsReservation() && !after.holdsReservation() ? amount : 0;
        long refunded = after == RefundStatus.SUCCEEDED && before != RefundStatus.SUCCEEDED ? amount : 0;
        if (released == 0 && refunded == 0) {
            return;
        }
        int updated = jdbc.sql("""
                        UPDATE payments SET refund_reserved = refund_reserved - :released,
                                            refunded_amount = refunded_amount + :refunded
                        WHERE payment_id = :id
                        """)
                .param("released", released).param("refunded", refunded).param("id", paymentId.value()).update();
        if (updated != 1) {
            throw new IllegalStateException("Payment " + paymentId + " vanished while booking a refund");
        }
    }

    @Override
    public RefundAmounts amounts(PaymentId paymentId) {
        return jdbc.sql("SELECT amount, refunded_amount, refund_reserved FROM payments WHERE payment_id = :id")
                .param("id", paymentId.value())
                .query((rs, i) -> new RefundAmounts(rs.getLong("amount"), rs.getLong("refunded_amount"),
                        rs.getLong("refund_reserved")))
                .optional().orElse(new RefundAmounts(0, 0, 0));
    }

    @Override
    public List<PaymentId> withUnsettledRefunds(Instant before, int limit) {
        return jdbc.sql("""
                        SELECT payment_id FROM refunds
                        WHERE status IN ('REQUESTED', 'UNKNOWN') AND updated_at < :before
                        GROUP BY payment_id ORDER BY min(updated_at) LIMIT :limit
                        """)
                .param("before", timestamp(before)).param("limit", limit)
                .query((rs, i) -> new PaymentId(rs.getObject("payment_id", UUID.class))).list();
    }

    private static Map<String, Object> params(Refund r) {
        Map<String, Object> params = new java.util.HashMap<>();
        params.put("id", r.id().value());
        params.put("paymentId", r.paymentId().value());
        params.put("amount", r.money().amount());
        params.put("currency", r.money().currency());
        params.put("status", r.status().name());
        params.put("reason", r.reason());
        params.put("requester", r.requester().name());
        params.put("requestedBy", r.requestedBy());
        params.put("txKey", r.pgTransactionKey());
        params.put("failureCode", r.failureCode());
        params.put("requestedAt", timestamp(r.requestedAt()));
        params.put("updatedAt", timestamp(r.updatedAt()));
        return params;
    }
}
