package dev.payments.notification.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.notification.application.Notifications;
import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.NotificationId;
import dev.payments.notification.domain.NotificationKind;
import dev.payments.notification.domain.NotificationStatus;
import dev.payments.notification.domain.OrderId;
import dev.payments.notification.domain.PaymentId;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations;
import org.springframework.jdbc.core.namedparam.SqlParameterSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

@Repository
class JdbcNotifications implements Notifications {

    private static final String COLUMNS = "id, event_id, kind, order_id, payment_id, member_id, amount, currency, "
            + "status, attempts, last_error, next_attempt_at, created_at, updated_at, sent_at";

    private final JdbcClient jdbc;
    private final NamedParameterJdbcOperations batch;

    JdbcNotifications(JdbcClient jdbc, NamedParameterJdbcOperations batch) {
        this.jdbc = jdbc;
        this.batch = batch;
    }

    @Override
    public boolean insertIfAbsent(Notification n) {
        return jdbc.sql("INSERT INTO notifications (" + COLUMNS + ") VALUES (:id, :eventId, :kind, :orderId, "
                        + ":paymentId, :memberId, :amount, :currency, :status, :attempts, :lastError, :nextAttemptAt, "
                        + ":createdAt, :updatedAt, :sentAt) ON CONFLICT DO NOTHING")
                .param("id", n.id().value())
                .param("eventId", n.eventId())
                .param("kind", n.kind().name())
                .param("orderId", n.orderId().value())
                .param("paymentId", n.paymentId().value())
                .param("memberId", n.memberId().value())
                .param("amount", n.money().amount())
                .param("currency", n.money().currency())
                .param("status", n.status().name())
                .param("attempts", n.attempts())
                .param("lastError", n.lastError().orElse(null))
                .param("nextAttemptAt", n.nextAttemptAt().map(Timestamp::from).orElse(null))
                .param("createdAt", Timestamp.from(n.createdAt()))
                .param("updatedAt", Timestamp.from(n.updatedAt()))
                .param("sentAt", n.sentAt().map(Timestamp::from).orElse(null))
                .update() == 1;
    }

    @Override
    public List<Notification> claimDue(Instant now, Duration lease, int limit) {
        return jdbc.sql("""
                        UPDATE notifications SET claimed_until = :leaseEnd
                        WHERE id IN (SELECT id FROM notifications
                                     WHERE next_attempt_at <= :now
                                       AND (claimed_until IS NULL OR claimed_until < :now)
                                     ORDER BY next_attempt_at
                                     LIMIT :limit
                                     FOR UPDATE SKIP LOCKED)
                        RETURNING\s""" + COLUMNS)
                .param("leaseEnd", Timestamp.from(now.plus(lease)))
                .param("now", Timestamp.from(now))
                .param("limit", limit)
                .query((rs, row) -> map(rs))
                .list();
    }

    @Override
    public void updateAll(List<Notification> results) {
        batch.batchUpdate("""
                        UPDATE notifications SET status = :status, attempts = :attempts, last_error = :lastError,
                               next_attempt_at = :nextAttemptAt, sent_at = :sentAt, updated_at = :updatedAt,
                               claimed_until = NULL
                        WHERE id = :id
                        """,
                results.stream().map(n -> new MapSqlParameterSource()
                        .addValue("id", n.id().value())
                        .addValue("status", n.status().name())
                        .addValue("attempts", n.attempts())
                        .addValue("lastError", n.lastError().orElse(null))
                        .addValue("nextAttemptAt", n.nextAttemptAt().map(Timestamp::from).orElse(null))
                        .addValue("sentAt", n.sentAt().map(Timestamp::from).orElse(null))
                        .addValue("updatedAt", Timestamp.from(n.updatedAt()))).toArray(SqlParameterSource[]::new));
    }

    @Override
    public List<Notification> findByOrder(OrderId orderId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM notifications WHERE order_id = :orderId ORDER BY created_at, kind")
                .param("orderId", orderId.value())
                .query((rs, row) -> map(rs))
                .list();
    }

    private static Notification map(ResultSet rs) throws SQLException {
        return Notification.restore(
                new NotificationId(rs.getObject("id", UUID.class)),
                rs.getObject("event_id", UUID.class),
                NotificationKind.valueOf(rs.getString("kind")),
                new OrderId(rs.getObject("order_id", UUID.class)),
                new PaymentId(rs.getObject("payment_id", UUID.class)),
                new MemberId(rs.getString("member_id")),
                new Money(rs.getLong("amount"), rs.getString("currency")),
                instant(rs, "created_at"),
                NotificationStatus.valueOf(rs.getString("status")),
                rs.getInt("attempts"),
                rs.getString("last_error"),
                instant(rs, "next_attempt_at"),
                instant(rs, "sent_at"),
                instant(rs, "updated_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
