package dev.payments.reconciliation.adapter.out.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.ledger.LedgerAudits;
import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerMoney;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.MismatchReason;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;

/** Stored ledger audits; the mismatches as a JSON array (they are read back whole, never queried into). */
@Repository
class JdbcLedgerAudits implements LedgerAudits {

    /** The stored shape of a mismatch, kept apart from the domain record so the domain can change freely. */
    record StoredMismatch(String transactionKey, String orderId, String paymentKey, UUID paymentId, long amount,
                          String currency, String reason, String detail, Instant at) {
    }

    private static final TypeReference<List<StoredMismatch>> LIST = new TypeReference<>() {
    };
    private static final TypeReference<LedgerMoney> MONEY = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final ObjectMapper json;

    JdbcLedgerAudits(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    @Override
    public void save(LedgerReport report) {
        jdbc.sql("""
                        INSERT INTO ledger_audit (audited_at, window_from, window_to, pg_approvals, pg_cancels,
                            paid_orders, renewals, cancellations, incidents, in_flight, holds, mismatches, money)
                        VALUES (:at, :from, :to, :approvals, :cancels, :paid, :renewals, :cancellations, :incidents, :inFlight,
                            :holds, CAST(:mismatches AS jsonb), CAST(:money AS jsonb))""")
                .param("at", timestamp(report.auditedAt()))
                .param("from", timestamp(report.from()))
                .param("to", timestamp(report.to()))
                .param("approvals", report.pgApprovals())
                .param("cancels", report.pgCancels())
                .param("paid", report.paidOrders())
                .param("renewals", report.renewals())
                .param("cancellations", report.cancellations())
                .param("incidents", report.incidents())
                .param("inFlight", report.inFlight())
                .param("holds", report.holds())
                .param("mismatches", toJson(stored(report.mismatches())))
                .param("money", toJson(report.money()))
                .update();
    }

    @Override
    public Optional<LedgerReport> latest() {
        return jdbc.sql("""
                        SELECT audited_at, window_from, window_to, pg_approvals, pg_cancels, paid_orders, renewals, cancellations,
                               incidents, in_flight, mismatches::text AS mismatches, money::text AS money
                        FROM ledger_audit ORDER BY audited_at DESC, id DESC LIMIT 1""")
                .query((row, n) -> new LedgerReport(instant(row, "audited_at"), instant(row, "window_from"),
                        instant(row, "window_to"), row.getLong("pg_approvals"), row.getLong("pg_cancels"),
                        row.getLong("paid_orders"), row.getLong("renewals"), row.getLong("cancellations"), row.getLong("incidents"),
                        row.getLong("in_flight"), read(row.getString("mismatches")), fromJson(row.getString("money"), MONEY)))
                .optional();
    }

    private List<LedgerMismatch> read(String text) {
        return fromJson(text, LIST).stream()
                .map(m -> new LedgerMismatch(m.transactionKey(), m.orderId(), m.paymentKey(),
                        m.paymentId() == null ? null : new PaymentId(m.paymentId()), m.amount(), m.currency(),
                        MismatchReason.valueOf(m.reason()), m.detail(), m.at()))
                .toList();
    }

    private List<StoredMismatch> stored(List<LedgerMismatch> mismatches) {
        return mismatches.stream().map(m -> new StoredMismatch(m.transactionKey(), m.orderId(), m.paymentKey(),
                m.paymentId() == null ? null : m.paymentId().value(), m.amount(), m.currency(), m.reason().name(),
                m.detail(), m.at())).toList();
    }

    private String toJson(Object value) {
        try {
            return value == null ? null : json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot store the ledger audit's " + value.getClass().getSimpleName(), e);
        }
    }

    private <T> T fromJson(String text, TypeReference<T> type) {
        try {
            return text == null ? null : json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored ledger audit is not readable", e);
        }
    }
}
