package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.reconciliation.application.settling.LostOutcome;
import dev.payments.reconciliation.application.settling.LostOutcomes;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

/** Orders that lag their payment's outcome, found in the two views; each statement is short and stands alone. */
@Repository
class JdbcLostOutcomes implements LostOutcomes {

    private final JdbcClient jdbc;

    JdbcLostOutcomes(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The payment is the last one seen for its order, its outcome is final, and the order does not show it: an
     * APPROVED, DECLINED or FAILED payment under an order still CREATED or PAYMENT_PENDING, an APPROVED one under a
     * FAILED order (a new attempt whose approval order-service never applied), a CANCELED one under an order still
     * CREATED, PAYMENT_PENDING or PAID. The view's FAILED order may name the earlier, declined attempt: the projection
     * never moves an order back from FAILED to PAYMENT_PENDING, so a FAILED order matches any latest payment.
     */
    @Override
    public List<LostOutcome> due(Instant now, Instant notBefore, Instant before, int limit) {
        return jdbc.sql("""
                        SELECT p.payment_id, p.order_id, p.status AS payment_status, o.status AS order_status,
                               p.last_event_at, coalesce(r.attempts, 0) AS attempts
                        FROM payment_view p
                            JOIN order_view o ON o.order_id = p.order_id
                            LEFT JOIN outcome_repair r ON r.payment_id = p.payment_id
                        WHERE p.status IN ('APPROVED', 'DECLINED', 'FAILED', 'CANCELED')
                          AND p.last_event_at >= :notBefore AND p.last_event_at <= :before
                          AND NOT EXISTS (SELECT 1 FROM payment_view q WHERE q.order_id = p.order_id
                                          AND q.payment_id <> p.payment_id AND q.first_seen_at > p.first_seen_at)
                          AND (o.payment_id IS NULL OR o.payment_id = p.payment_id OR o.status = 'FAILED')
                          AND (o.status IN ('CREATED', 'PAYMENT_PENDING')
                               OR (p.status = 'APPROVED' AND o.status = 'FAILED')
                               OR (p.status = 'CANCELED' AND o.status IN ('PAID', 'PARTIALLY_REFUNDED')))
                          AND (r.payment_id IS NULL OR r.next_attempt_at <= :now)
                        ORDER BY p.last_event_at, p.payment_id
                        LIMIT :limit""")
                .param("now", timestamp(now))
                .param("notBefore", timestamp(notBefore))
                .param("before", timestamp(before))
                .param("limit", limit)
                .query((row, n) -> new LostOutcome(new PaymentId(uuid(row, "payment_id")),
                        new OrderId(uuid(row, "order_id")), PaymentStatus.valueOf(row.getString("payment_status")),
                        OrderStatus.valueOf(row.getString("order_status")), instant(row, "last_event_at"),
                        row.getInt("attempts")))
                .list();
    }

    @Override
    public boolean claim(LostOutcome lost, Instant now, Instant until) {
        return jdbc.sql("""
                        INSERT INTO outcome_repair AS r (payment_id, order_id, next_attempt_at)
                        VALUES (:paymentId, :orderId, :until)
                        ON CONFLICT (payment_id) DO UPDATE SET next_attempt_at = EXCLUDED.next_attempt_at
                            WHERE r.next_attempt_at <= :now""")
                .param("paymentId", lost.paymentId().value())
                .param("orderId", lost.orderId().value())
                .param("now", timestamp(now))
                .param("until", timestamp(until))
                .update() == 1;
    }

    @Override
    public void record(PaymentId paymentId, RepublishOutcome outcome, int attempts, Instant at,
                       Instant nextAttemptAt) {
        String detail = outcome.detail();
        jdbc.sql("""
                        UPDATE outcome_repair SET attempts = :attempts, last_result = :result, last_detail = :detail,
                            last_attempt_at = :at, next_attempt_at = :next
                        WHERE payment_id = :paymentId""")
                .param("paymentId", paymentId.value())
                .param("attempts", attempts)
                .param("result", outcome.result().name())
                .param("detail", detail == null || detail.length() <= 1000 ? detail : detail.substring(0, 997) + "...")
                .param("at", timestamp(at))
                .param("next", timestamp(nextAttemptAt))
                .update();
    }
}
