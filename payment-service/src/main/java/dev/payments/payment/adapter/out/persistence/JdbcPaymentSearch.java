package dev.payments.payment.adapter.out.persistence;

import dev.payments.payment.application.PaymentSearch;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentStatus;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The search as SQL. Every value is a bind parameter; only the choice of conditions varies. The indexes of V8 serve
 * the newest-first order alone and with a member or a status; an id, order id or payment key is matched by its own
 * index first (V1, V2).
 */
@Repository
class JdbcPaymentSearch implements PaymentSearch {

    private static final String NEWEST_FIRST = " ORDER BY requested_at DESC, payment_id DESC";
    private static final String OLDEST_FIRST = " ORDER BY requested_at ASC, payment_id ASC";

    private final NamedParameterJdbcTemplate jdbc;

    JdbcPaymentSearch(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<Payment> olderThan(Criteria criteria, Position after, int limit) {
        Where where = where(criteria);
        if (after != null) {
            where.and("(requested_at, payment_id) < (:atRequested, :atId)");
            where.params.addValue("atRequested", JdbcPayments.timestamp(after.requestedAt()))
                    .addValue("atId", after.paymentId());
        }
        where.params.addValue("limit", limit);
        return jdbc.query("SELECT " + JdbcPayments.COLUMNS + " FROM payments" + where.sql + NEWEST_FIRST + " LIMIT :limit",
                where.params, JdbcPayments.ROW);
    }

    @Override
    public List<Payment> newerThan(Criteria criteria, Position before, int limit) {
        Where where = where(criteria);
        where.and("(requested_at, payment_id) > (:atRequested, :atId)");
        where.params.addValue("atRequested", JdbcPayments.timestamp(before.requestedAt()))
                .addValue("atId", before.paymentId()).addValue("limit", limit);
        List<Payment> nearestFirst = new ArrayList<>(jdbc.query("SELECT " + JdbcPayments.COLUMNS + " FROM payments"
                + where.sql + OLDEST_FIRST + " LIMIT :limit", where.params, JdbcPayments.ROW));
        Collections.reverse(nearestFirst);
        return nearestFirst;
    }

    @Override
    public List<NotFinal> notFinal() {
        java.util.Map<PaymentStatus, NotFinal> found = new java.util.EnumMap<>(PaymentStatus.class);
        jdbc.query("""
                SELECT status, count(*) AS n, min(requested_at) AS oldest FROM payments
                WHERE status IN ('REQUESTED', 'UNKNOWN', 'CANCEL_OWED') GROUP BY status""", (RowCallbackHandler) rs -> {
            PaymentStatus status = PaymentStatus.valueOf(rs.getString("status"));
            found.put(status, new NotFinal(status, rs.getLong("n"), JdbcPayments.instant(rs.getTimestamp("oldest"))));
        });
        return java.util.stream.Stream.of(PaymentStatus.REQUESTED, PaymentStatus.UNKNOWN, PaymentStatus.CANCEL_OWED)
                .map(status -> found.getOrDefault(status, new NotFinal(status, 0, null))).toList();
    }

    @Override
    public long countUpTo(Criteria criteria, long limit) {
        Where where = where(criteria);
        where.params.addValue("limit", limit);
        Long count = jdbc.queryForObject("SELECT count(*) FROM (SELECT 1 FROM payments" + where.sql + " LIMIT :limit) matched",
                where.params, Long.class);
        return count == null ? 0 : count;
    }

    @Override
    public void forEach(Criteria criteria, int limit, Consumer<Payment> row) {
        Where where = where(criteria);
        where.params.addValue("limit", limit);
        int[] index = {0};
        jdbc.query("SELECT " + JdbcPayments.COLUMNS + " FROM payments" + where.sql + NEWEST_FIRST + " LIMIT :limit",
                where.params, (RowCallbackHandler) rs -> row.accept(JdbcPayments.ROW.mapRow(rs, index[0]++)));
    }

    private static Where where(Criteria c) {
        Where where = new Where();
        if (c.paymentId() != null) {
            where.and("payment_id = :paymentId");
            where.params.addValue("paymentId", c.paymentId().value());
        }
        if (c.orderId() != null) {
            where.and("order_id = :orderId");
            where.params.addValue("orderId", c.orderId().value());
        }
        if (c.paymentKey() != null) {
            where.and("payment_key = :paymentKey");
            where.params.addValue("paymentKey", c.paymentKey());
        }
        if (c.memberId() != null) {
            where.and("member_id = :memberId");
            where.params.addValue("memberId", c.memberId().value());
        }
        if (c.status() != null) {
            where.and("status = :status");
            where.params.addValue("status", c.status().name());
        }
        if (c.from() != null) {
            where.and("requested_at >= :from");
            where.params.addValue("from", JdbcPayments.timestamp(c.from()));
        }
        if (c.to() != null) {
            where.and("requested_at < :to");
            where.params.addValue("to", JdbcPayments.timestamp(c.to()));
        }
        return where;
    }

    private static final class Where {
        private final MapSqlParameterSource params = new MapSqlParameterSource();
        private String sql = "";

        void and(String condition) {
            sql += sql.isEmpty() ? " WHERE " + condition : " AND " + condition;
        }
    }
}
