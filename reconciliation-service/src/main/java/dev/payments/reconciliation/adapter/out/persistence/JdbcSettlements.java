package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.settling.Overdue;
import dev.payments.reconciliation.application.settling.SettleAttempt;
import dev.payments.reconciliation.application.settling.SettleCandidate;
import dev.payments.reconciliation.application.settling.Settlements;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.AttemptResult;
import dev.payments.reconciliation.domain.settling.SettleTrigger;
import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

/**
 * The settler's bookkeeping. Every method is one short statement or transaction: the sync call between claim and
 * record holds no connection (field report 000's pool exhaustion came from exactly that).
 */
@Repository
class JdbcSettlements implements Settlements {

    private static final String COLUMNS = """
            s.payment_id, s.order_id, s.picked_for, s.attempts, s.unsettled_streak, s.compensation_failures,
            s.last_result, s.last_pg_state, s.last_detail, s.first_attempt_at, s.last_attempt_at, s.next_attempt_at,
            s.settled_at, s.settled_status""";

    /** The settlement's columns next to a view's payment and order id, which are the same values. */
    private static final String JOINED_COLUMNS = COLUMNS.replace("s.payment_id, s.order_id, ", "");

    private static final RowMapper<Settlement> SETTLEMENT = (row, n) -> settlement(row);

    /** An incident that a human owns (ACKNOWLEDGED, RESOLVED) takes the payment out of the settler's hands. */
    private static final String NOT_OWNED_BY_A_HUMAN = """
            NOT EXISTS (SELECT 1 FROM incident i WHERE i.subject = 'payment:' || c.payment_id AND i.state <> 'OPEN')""";

    /**
     * A payment settled before (say APPROVED) that now owes a cancel (a refund, a late approval): settling starts over
     * for it. Not once it was settled CANCELED: the projection may still show the CANCEL_OWED of a moment ago.
     */
    private static final String REOPENS = """
            s.settled_at IS NOT NULL AND s.settled_status <> 'CANCELED'
              AND (s.claimed_until IS NULL OR s.claimed_until <= :now)""";

    private final JdbcClient jdbc;

    JdbcSettlements(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<SettleCandidate> due(Instant now, Instant staleBefore, int limit) {
        return jdbc.sql("""
                        WITH candidate AS (
                            SELECT p.payment_id, p.order_id, p.amount, p.currency,
                                   CASE p.status WHEN 'UNKNOWN' THEN 'PAYMENT_UNKNOWN'
                                                 WHEN 'CANCEL_OWED' THEN 'CANCEL_OWED'
                                                 ELSE 'STALE_REQUESTED' END AS picked_for,
                                   p.last_event_at AS since, 0 AS preference
                            FROM payment_view p
                            WHERE p.status IN ('UNKNOWN', 'CANCEL_OWED')
                               OR (p.status = 'REQUESTED' AND p.last_event_at <= :staleBefore)
                            UNION ALL
                            SELECT o.payment_id, o.order_id, coalesce(p.amount, o.amount), coalesce(p.currency, o.currency),
                                   'ORDER_STUCK', o.last_event_at, 1
                            FROM order_view o LEFT JOIN payment_view p ON p.payment_id = o.payment_id
                            WHERE o.status = 'PAYMENT_PENDING' AND o.payment_id IS NOT NULL
                              AND o.last_event_at <= :staleBefore
                        ), c AS (
                            SELECT DISTINCT ON (payment_id) * FROM candidate ORDER BY payment_id, preference
                        )
                        SELECT c.payment_id, c.order_id, c.amount, c.currency, c.picked_for, c.since
                        FROM c LEFT JOIN settlement s ON s.payment_id = c.payment_id
                        WHERE (s.payment_id IS NULL
                               OR (s.settled_at IS NULL AND s.next_attempt_at <= :now
                                   AND (s.claimed_until IS NULL OR s.claimed_until <= :now))
                               OR (c.picked_for = 'CANCEL_OWED' AND\s""" + REOPENS + """
                        ))
                          AND\s""" + NOT_OWNED_BY_A_HUMAN + """

                        ORDER BY coalesce(s.next_attempt_at, c.since), c.payment_id
                        LIMIT :limit""")
                .param("now", timestamp(now))
                .param("staleBefore", timestamp(staleBefore))
                .param("limit", limit)
                .query((row, n) -> new SettleCandidate(new PaymentId(uuid(row, "payment_id")),
                        new OrderId(uuid(row, "order_id")), SettleTrigger.valueOf(row.getString("picked_for")),
                        money(row), instant(row, "since")))
                .list();
    }

    @Override
    public Optional<Settlement> claim(SettleCandidate candidate, Instant now, Instant until,
                                      String claimant) {
        return jdbc.sql("""
                        INSERT INTO settlement AS s (payment_id, order_id, picked_for, next_attempt_at, claimed_until, claimed_by)
                        VALUES (:paymentId, :orderId, :pickedFor, :now, :until, :claimant)
                        ON CONFLICT (payment_id) DO UPDATE
                            SET claimed_until = EXCLUDED.claimed_until, claimed_by = EXCLUDED.claimed_by,
                                picked_for = EXCLUDED.picked_for,
                                -- reopened: a fresh settling of the cancel now owed
                                settled_at = NULL, settled_status = NULL,
                                unsettled_streak = CASE WHEN s.settled_at IS NULL THEN s.unsettled_streak ELSE 0 END,
                                compensation_failures = CASE WHEN s.settled_at IS NULL THEN s.compensation_failures ELSE 0 END,
                                next_attempt_at = CASE WHEN s.settled_at IS NULL THEN s.next_attempt_at ELSE :now END
                            WHERE ((s.settled_at IS NULL AND s.next_attempt_at <= :now
                                    AND (s.claimed_until IS NULL OR s.claimed_until <= :now))
                                   OR (:pickedFor = 'CANCEL_OWED' AND\s""" + REOPENS + """
                            ))
                        RETURNING\s""" + COLUMNS)
                .param("paymentId", candidate.paymentId().value())
                .param("orderId", candidate.orderId().value())
                .param("pickedFor", candidate.trigger().name())
                .param("now", timestamp(now))
                .param("until", timestamp(until))
                .param("claimant", claimant)
                .query(SETTLEMENT)
                .optional();
    }

    @Override
    public void release(PaymentId paymentId) {
        jdbc.sql("UPDATE settlement SET claimed_until = NULL, claimed_by = NULL WHERE payment_id = :id")
                .param("id", paymentId.value()).update();
    }

    @Override
    @Transactional
    public void record(Settlement settlement, SettleAttempt attempt) {
        Map<String, Object> params = new HashMap<>();
        params.put("paymentId", settlement.paymentId().value());
        params.put("orderId", settlement.orderId().value());
        params.put("pickedFor", settlement.trigger().name());
        params.put("attempts", settlement.attempts());
        params.put("streak", settlement.unsettledStreak());
        params.put("compensation", settlement.compensationFailures());
        params.put("lastResult", settlement.lastResult() == null ? null : settlement.lastResult().name());
        params.put("lastPgState", settlement.lastPgState());
        params.put("lastDetail", settlement.lastDetail());
        params.put("firstAttemptAt", timestamp(settlement.firstAttemptAt()));
        params.put("lastAttemptAt", timestamp(settlement.lastAttemptAt()));
        params.put("nextAttemptAt", timestamp(settlement.nextAttemptAt()));
        params.put("settledAt", timestamp(settlement.settledAt()));
        params.put("settledStatus", settlement.settledStatus() == null ? null : settlement.settledStatus().name());
        jdbc.sql("""
                        INSERT INTO settlement (payment_id, order_id, picked_for, attempts, unsettled_streak,
                            compensation_failures, last_result, last_pg_state, last_detail, first_attempt_at,
                            last_attempt_at, next_attempt_at, settled_at, settled_status)
                        VALUES (:paymentId, :orderId, :pickedFor, :attempts, :streak, :compensation, :lastResult,
                            :lastPgState, :lastDetail, :firstAttemptAt, :lastAttemptAt, :nextAttemptAt, :settledAt,
                            :settledStatus)
                        ON CONFLICT (payment_id) DO UPDATE SET picked_for = EXCLUDED.picked_for,
                            attempts = EXCLUDED.attempts, unsettled_streak = EXCLUDED.unsettled_streak,
                            compensation_failures = EXCLUDED.compensation_failures, last_result = EXCLUDED.last_result,
                            last_pg_state = EXCLUDED.last_pg_state, last_detail = EXCLUDED.last_detail,
                            first_attempt_at = EXCLUDED.first_attempt_at, last_attempt_at = EXCLUDED.last_attempt_at,
                            next_attempt_at = EXCLUDED.next_attempt_at, settled_at = EXCLUDED.settled_at,
                            settled_status = EXCLUDED.settled_status, claimed_until = NULL, claimed_by = NULL""")
                .params(params).update();
        Map<String, Object> row = new HashMap<>();
        row.put("paymentId", attempt.paymentId().value());
        row.put("at", timestamp(attempt.attemptedAt()));
        row.put("pickedFor", attempt.trigger().name());
        row.put("result", attempt.result().name());
        row.put("paymentStatus", attempt.paymentStatus() == null ? null : attempt.paymentStatus().name());
        row.put("pgState", attempt.pgState());
        row.put("action", attempt.action());
        row.put("detail", truncate(attempt.detail()));
        row.put("took", (int) Math.min(Integer.MAX_VALUE, attempt.took().toMillis()));
        jdbc.sql("""
                        INSERT INTO settlement_attempt (payment_id, attempted_at, picked_for, result, payment_status,
                            pg_state, action, detail, duration_ms)
                        VALUES (:paymentId, :at, :pickedFor, :result, :paymentStatus, :pgState, :action, :detail, :took)""")
                .params(row).update();
    }

    @Override
    public Optional<Settlement> find(PaymentId paymentId) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM settlement s WHERE s.payment_id = :id")
                .param("id", paymentId.value()).query(SETTLEMENT).optional();
    }

    @Override
    public List<SettleAttempt> attempts(PaymentId paymentId) {
        return jdbc.sql("""
                        SELECT payment_id, attempted_at, picked_for, result, payment_status, pg_state, action, detail,
                               duration_ms
                        FROM settlement_attempt WHERE payment_id = :id ORDER BY attempted_at, id""")
                .param("id", paymentId.value())
                .query((row, n) -> {
                    String status = row.getString("payment_status");
                    return new SettleAttempt(new PaymentId(uuid(row, "payment_id")), instant(row, "attempted_at"),
                            SettleTrigger.valueOf(row.getString("picked_for")),
                            AttemptResult.valueOf(row.getString("result")),
                            status == null ? null : PaymentStatus.valueOf(status), row.getString("pg_state"),
                            row.getString("action"), row.getString("detail"),
                            Duration.ofMillis(row.getInt("duration_ms")));
                })
                .list();
    }

    @Override
    public List<Overdue> overduePayments(Instant before, int limit) {
        return jdbc.sql("""
                        SELECT c.payment_id, c.order_id, c.amount, c.currency, c.status, c.last_event_at AS since,
                               s.payment_id AS settlement_payment_id,\s""" + JOINED_COLUMNS + """

                        FROM payment_view c LEFT JOIN settlement s ON s.payment_id = c.payment_id
                        WHERE c.status IN ('UNKNOWN', 'REQUESTED', 'CANCEL_OWED') AND c.last_event_at <= :before
                          AND NOT EXISTS (SELECT 1 FROM incident i WHERE i.subject = 'payment:' || c.payment_id)
                        ORDER BY c.last_event_at LIMIT :limit""")
                .param("before", timestamp(before))
                .param("limit", limit)
                .query((row, n) -> overdue(row))
                .list();
    }

    @Override
    public List<Overdue> overdueOrders(Instant before, int limit) {
        return jdbc.sql("""
                        SELECT o.payment_id, o.order_id, coalesce(p.amount, o.amount) AS amount,
                               coalesce(p.currency, o.currency) AS currency, p.status, o.last_event_at AS since,
                               s.payment_id AS settlement_payment_id,\s""" + JOINED_COLUMNS + """

                        FROM order_view o
                            LEFT JOIN payment_view p ON p.payment_id = o.payment_id
                            LEFT JOIN settlement s ON s.payment_id = o.payment_id
                        WHERE o.status = 'PAYMENT_PENDING' AND o.payment_id IS NOT NULL AND o.last_event_at <= :before
                          AND NOT EXISTS (SELECT 1 FROM incident i WHERE i.subject = 'payment:' || o.payment_id)
                        ORDER BY o.last_event_at LIMIT :limit""")
                .param("before", timestamp(before))
                .param("limit", limit)
                .query((row, n) -> overdue(row))
                .list();
    }

    private static Overdue overdue(ResultSet row) throws SQLException {
        String status = row.getString("status");
        Optional<Settlement> settlement = row.getObject("settlement_payment_id") == null ? Optional.empty()
                : Optional.of(settlement(row, "settlement_payment_id"));
        return new Overdue(new PaymentId(uuid(row, "payment_id")), new OrderId(uuid(row, "order_id")), money(row),
                status == null ? null : PaymentStatus.valueOf(status), instant(row, "since"), settlement);
    }

    private static Settlement settlement(ResultSet row) throws SQLException {
        return settlement(row, "payment_id");
    }

    private static Settlement settlement(ResultSet row, String paymentIdColumn) throws SQLException {
        String lastResult = row.getString("last_result");
        String settledStatus = row.getString("settled_status");
        return new Settlement(new PaymentId(uuid(row, paymentIdColumn)), new OrderId(uuid(row, "order_id")),
                SettleTrigger.valueOf(row.getString("picked_for")), row.getInt("attempts"),
                row.getInt("unsettled_streak"), row.getInt("compensation_failures"),
                lastResult == null ? null : AttemptResult.valueOf(lastResult), row.getString("last_pg_state"),
                row.getString("last_detail"), instant(row, "first_attempt_at"), instant(row, "last_attempt_at"),
                instant(row, "next_attempt_at"), instant(row, "settled_at"),
                settledStatus == null ? null : PaymentStatus.valueOf(settledStatus));
    }

    private static Money money(ResultSet row) throws SQLException {
        String currency = row.getString("currency");
        return currency == null ? null : new Money(row.getLong("amount"), currency);
    }

    private static String truncate(String text) {
        return text == null || text.length() <= 1000 ? text : text.substring(0, 997) + "...";
    }
}
