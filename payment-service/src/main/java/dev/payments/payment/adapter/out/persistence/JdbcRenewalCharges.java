package dev.payments.payment.adapter.out.persistence;

import dev.payments.payment.application.renewal.RenewalCharges;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.renewal.RenewalCharge;
import dev.payments.payment.domain.renewal.SubscriptionId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcRenewalCharges implements RenewalCharges {

    private static final String COLUMNS = "c.subscription_id, c.period, c.state, c.attempt, c.declines, c.payment_id, "
            + "c.next_attempt_at, c.first_declined_at";

    private static final RowMapper<RenewalCharge> ROW = (rs, i) -> read(rs);

    private final JdbcClient jdbc;

    JdbcRenewalCharges(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private static RenewalCharge read(ResultSet rs) throws SQLException {
        UUID payment = rs.getObject("payment_id", UUID.class);
        return RenewalCharge.restore(new SubscriptionId(rs.getObject("subscription_id", UUID.class)),
                rs.getObject("period", LocalDate.class), RenewalCharge.State.valueOf(rs.getString("state")),
                rs.getInt("attempt"), rs.getInt("declines"), payment == null ? null : new PaymentId(payment),
                JdbcPayments.instant(rs.getTimestamp("next_attempt_at")),
                JdbcPayments.instant(rs.getTimestamp("first_declined_at")));
    }

    @Override
    public int planDue(LocalDate today, Instant now) {
        return jdbc.sql("""
                        INSERT INTO renewal_charges (subscription_id, period, state, attempt, declines, next_attempt_at)
                        SELECT subscription_id, next_period, 'DUE', 0, 0, :now FROM subscriptions
                        WHERE status = 'ACTIVE' AND next_period <= :today
                        ON CONFLICT (subscription_id, period) DO NOTHING
                        """)
                .param("today", today).param("now", JdbcPayments.timestamp(now)).update();
    }

    @Override
    public Optional<Claimed> claimDue(Instant now) {
        return jdbc.sql("SELECT " + COLUMNS + ", " + JdbcSubscriptions.COLUMNS + """
                         FROM renewal_charges c JOIN subscriptions s ON s.subscription_id = c.subscription_id
                        WHERE c.state = 'DUE' AND c.next_attempt_at <= :now AND s.status = 'ACTIVE'
                        ORDER BY c.next_attempt_at
                        LIMIT 1
                        FOR UPDATE OF c SKIP LOCKED
                        """)
                .param("now", JdbcPayments.timestamp(now))
                .query((rs, i) -> new Claimed(read(rs), JdbcSubscriptions.read(rs))).optional();
    }

    @Override
    public List<RenewalCharge> lockDue(SubscriptionId subscriptionId) {
        return jdbc.sql("SELECT " + COLUMNS + """
                         FROM renewal_charges c WHERE c.subscription_id = :id AND c.state = 'DUE' FOR UPDATE
                        """)
                .param("id", subscriptionId.value()).query(ROW).list();
    }

    @Override
    public Optional<RenewalCharge> lock(SubscriptionId subscriptionId, LocalDate period) {
        return jdbc.sql("SELECT " + COLUMNS + """
                         FROM renewal_charges c WHERE c.subscription_id = :id AND c.period = :period FOR UPDATE
                        """)
                .param("id", subscriptionId.value()).param("period", period).query(ROW).optional();
    }

    @Override
    public void update(RenewalCharge c) {
        int updated = jdbc.sql("""
                        UPDATE renewal_charges SET state = :state, attempt = :attempt, declines = :declines,
                               payment_id = :payment, next_attempt_at = :nextAttemptAt,
                               first_declined_at = :firstDeclinedAt, updated_at = clock_timestamp()
                        WHERE subscription_id = :id AND period = :period
                        """)
                .param("id", c.subscriptionId().value()).param("period", c.period())
                .param("state", c.state().name()).param("attempt", c.attempt()).param("declines", c.declines())
                .param("payment", c.paymentId() == null ? null : c.paymentId().value())
                .param("nextAttemptAt", JdbcPayments.timestamp(c.nextAttemptAt()))
                .param("firstDeclinedAt", JdbcPayments.timestamp(c.firstDeclinedAt()))
                .update();
        if (updated != 1) {
            throw new IllegalStateException("Renewal charge " + c + " vanished during an update");
        }
    }

    @Override
    public void recordAttempt(RenewalCharge c) {
        jdbc.sql("""
                        INSERT INTO renewal_attempts (payment_id, subscription_id, period, attempt)
                        VALUES (:payment, :id, :period, :attempt)
                        """)
                .param("payment", c.paymentId().value()).param("id", c.subscriptionId().value())
                .param("period", c.period()).param("attempt", c.attempt()).update();
    }

    @Override
    public List<RenewalCharge> settledInFlight(int limit) {
        return jdbc.sql("SELECT " + COLUMNS + """
                         FROM renewal_charges c JOIN payments p ON p.payment_id = c.payment_id
                        WHERE c.state = 'CHARGING' AND p.status NOT IN ('REQUESTED', 'UNKNOWN', 'CANCEL_OWED')
                        LIMIT :limit
                        """)
                .param("limit", limit).query(ROW).list();
    }

    @Override
    public boolean awaitsPayment(PaymentId paymentId) {
        return jdbc.sql("SELECT count(*) FROM renewal_charges WHERE payment_id = :id AND state = 'CHARGING'")
                .param("id", paymentId.value()).query(Long.class).single() > 0;
    }

    @Override
    public long dueCount(Instant now) {
        return jdbc.sql("""
                        SELECT count(*) FROM renewal_charges c JOIN subscriptions s ON s.subscription_id = c.subscription_id
                        WHERE c.state = 'DUE' AND c.next_attempt_at <= :now AND s.status = 'ACTIVE'
                        """)
                .param("now", JdbcPayments.timestamp(now)).query(Long.class).single();
    }
}
