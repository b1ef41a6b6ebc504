package dev.payments.payment.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.payment.application.renewal.Subscriptions;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.Optional;
import java.util.UUID;

@Repository
class JdbcSubscriptions implements Subscriptions {

    static final String COLUMNS = "s.subscription_id, s.member_id, s.plan, s.amount, s.currency, s.billing_key, "
            + "s.next_period, s.status, s.created_at";

    static final RowMapper<Subscription> ROW = (rs, i) -> read(rs);

    private final JdbcClient jdbc;

    JdbcSubscriptions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    static Subscription read(ResultSet rs) throws SQLException {
        return new Subscription(new SubscriptionId(rs.getObject("subscription_id", UUID.class)),
                new MemberId(rs.getString("member_id")), rs.getString("plan"),
                new Money(rs.getLong("amount"), rs.getString("currency")), rs.getString("billing_key"),
                rs.getObject("next_period", LocalDate.class), Subscription.Status.valueOf(rs.getString("status")),
                JdbcPayments.instant(rs.getTimestamp("created_at")));
    }

    @Override
    public void insert(Subscription s) {
        jdbc.sql("""
                        INSERT INTO subscriptions (subscription_id, member_id, plan, amount, currency, billing_key,
                                                   next_period, status, created_at)
                        VALUES (:id, :member, :plan, :amount, :currency, :billingKey, :nextPeriod, :status, :createdAt)
                        """)
                .param("id", s.id().value()).param("member", s.memberId().value()).param("plan", s.plan())
                .param("amount", s.money().amount()).param("currency", s.money().currency())
                .param("billingKey", s.billingKey()).param("nextPeriod", s.nextPeriod())
                .param("status", s.status().name()).param("createdAt", JdbcPayments.timestamp(s.createdAt()))
                .update();
    }

    @Override
    public Optional<Subscription> findById(SubscriptionId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions s WHERE s.subscription_id = :id")
                .param("id", id.value()).query(ROW).optional();
    }

    @Override
    public Optional<Subscription> lock(SubscriptionId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions s WHERE s.subscription_id = :id FOR UPDATE")
                .param("id", id.value()).query(ROW).optional();
    }

    @Override
    public void updateStatus(Subscription s) {
        jdbc.sql("UPDATE subscriptions SET status = :status WHERE subscription_id = :id")
                .param("id", s.id().value()).param("status", s.status().name()).update();
    }

    @Override
    public void paidThrough(SubscriptionId id, LocalDate period) {
        jdbc.sql("UPDATE subscriptions SET next_period = :next WHERE subscription_id = :id AND next_period = :period")
                .param("id", id.value()).param("period", period).param("next", Subscription.periodAfter(period))
                .update();
    }

    @Override
    public void pastDue(SubscriptionId id) {
        jdbc.sql("UPDATE subscriptions SET status = 'PAST_DUE' WHERE subscription_id = :id")
                .param("id", id.value()).update();
    }
}
