package dev.payments.support.audit;

import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The {@code operator_action} table: written through the caller's transaction when there is one, read newest first. */
public final class OperatorActionLog {

    /** Columns are bounded; a longer value is cut rather than failing the action it records. */
    private static final int ACTION = 200;
    private static final int OBJECT = 400;
    private static final int REASON = 2000;
    private static final int SUBJECT = 128;

    private final JdbcClient jdbc;

    public OperatorActionLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(OperatorAction action) {
        jdbc.sql("""
                        INSERT INTO operator_action (id, at, subject, action, object_id, reason, result, status, in_transaction)
                        VALUES (:id, :at, :subject, :action, :objectId, :reason, :result, :status, :inTransaction)""")
                .param("id", action.id())
                .param("at", Timestamp.from(action.at()))
                .param("subject", cut(action.subject(), SUBJECT))
                .param("action", cut(action.action(), ACTION))
                .param("objectId", cut(action.objectId(), OBJECT))
                .param("reason", cut(action.reason(), REASON))
                .param("result", action.result().name())
                .param("status", action.status())
                .param("inTransaction", action.inTransaction())
                .update();
    }

    /**
     * Newest first; every criterion optional. {@code objectId} matches any part of the recorded ids (a payment id finds
     * its sync and its dead letters alike).
     */
    public List<OperatorAction> search(Criteria criteria, int page, int size) {
        StringBuilder sql = new StringBuilder("SELECT * FROM operator_action WHERE true");
        List<Object> params = new ArrayList<>();
        if (criteria.subject() != null) {
            sql.append(" AND subject = ?");
            params.add(criteria.subject());
        }
        if (criteria.objectId() != null) {
            sql.append(" AND strpos(object_id, ?) > 0");
            params.add(criteria.objectId());
        }
        if (criteria.result() != null) {
            sql.append(" AND result = ?");
            params.add(criteria.result().name());
        }
        if (criteria.from() != null) {
            sql.append(" AND at >= ?");
            params.add(Timestamp.from(criteria.from()));
        }
        if (criteria.to() != null) {
            sql.append(" AND at < ?");
            params.add(Timestamp.from(criteria.to()));
        }
        sql.append(" ORDER BY at DESC, id LIMIT ? OFFSET ?");
        params.add(size);
        params.add((long) page * size);
        return jdbc.sql(sql.toString()).params(params).query((row, n) -> new OperatorAction(
                row.getObject("id", UUID.class), row.getTimestamp("at").toInstant(), row.getString("subject"),
                row.getString("action"), row.getString("object_id"), row.getString("reason"),
                OperatorAction.Result.valueOf(row.getString("result")), (Integer) row.getObject("status"),
                row.getBoolean("in_transaction"))).list();
    }

    /** What to look for; null means any. */
    public record Criteria(String subject, String objectId, OperatorAction.Result result, Instant from, Instant to) {
    }

    private static String cut(String value, int max) {
        return value == null || value.length() <= max ? value : value.substring(0, max);
    }
}
