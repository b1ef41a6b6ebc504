package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

/** Incident records. There is no delete here, and the table refuses one (V2 migration's trigger). */
@Repository
class JdbcIncidents implements Incidents {

    private static final String COLUMNS = """
            incident_id, subject, reason, state, payment_id, order_id, amount, currency, pg_transaction_key, detail,
            attempts, opened_at, acknowledged_by, acknowledged_at, acknowledge_note, resolved_by, resolved_at,
            outcome, resolution, updated_at""";

    private static final RowMapper<Incident> MAPPER = (row, n) -> {
        UUID paymentId = uuid(row, "payment_id");
        UUID orderId = uuid(row, "order_id");
        String currency = row.getString("currency");
        return new Incident(new IncidentId(uuid(row, "incident_id")), row.getString("subject"),
                IncidentReason.valueOf(row.getString("reason")), IncidentState.valueOf(row.getString("state")),
                paymentId == null ? null : new PaymentId(paymentId), orderId == null ? null : new OrderId(orderId),
                currency == null ? null : new Money(row.getLong("amount"), currency),
                row.getString("pg_transaction_key"), row.getString("detail"), row.getInt("attempts"),
                instant(row, "opened_at"), row.getString("acknowledged_by"), instant(row, "acknowledged_at"),
                row.getString("acknowledge_note"), row.getString("resolved_by"), instant(row, "resolved_at"),
                row.getString("outcome") == null ? null : ResolutionOutcome.valueOf(row.getString("outcome")),
                row.getString("resolution"), instant(row, "updated_at"));
    };

    private final JdbcClient jdbc;

    JdbcIncidents(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public boolean insertIfNew(Incident incident) {
        return jdbc.sql("INSERT INTO incident (" + COLUMNS + """
                        ) VALUES (:id, :subject, :reason, :state, :paymentId, :orderId, :amount, :currency,
                            :pgTransactionKey, :detail, :attempts, :openedAt, :acknowledgedBy, :acknowledgedAt,
                            :acknowledgeNote, :resolvedBy, :resolvedAt, :outcome, :resolution, :updatedAt)
                        ON CONFLICT (subject) DO NOTHING""")
                .params(params(incident)).update() == 1;
    }

    @Override
    public Optional<Incident> find(IncidentId id) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE incident_id = :id")
                .param("id", id.value()).query(MAPPER).optional();
    }

    @Override
    public Optional<Incident> findBySubject(String subject) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident WHERE subject = :subject")
                .param("subject", subject).query(MAPPER).optional();
    }

    @Override
    public boolean update(Incident incident, IncidentState expected) {
        Map<String, Object> params = params(incident);
        params.put("expected", expected.name());
        return jdbc.sql("""
                        UPDATE incident SET state = :state, detail = :detail, attempts = :attempts,
                            acknowledged_by = :acknowledgedBy, acknowledged_at = :acknowledgedAt,
                            acknowledge_note = :acknowledgeNote, resolved_by = :resolvedBy, resolved_at = :resolvedAt,
                            outcome = :outcome, resolution = :resolution, updated_at = :updatedAt
                        WHERE incident_id = :id AND state = :expected""")
                .params(params).update() == 1;
    }

    @Override
    public List<Incident> list(IncidentState state, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + """
                         FROM incident WHERE (CAST(:state AS varchar) IS NULL OR state = :state)
                        ORDER BY opened_at DESC, incident_id LIMIT :limit""")
                .param("state", state == null ? null : state.name())
                .param("limit", limit)
                .query(MAPPER).list();
    }

    @Override
    public List<Incident> all() {
        return jdbc.sql("SELECT " + COLUMNS + " FROM incident ORDER BY opened_at").query(MAPPER).list();
    }

    @Override
    public long count(IncidentState state) {
        return jdbc.sql("SELECT count(*) FROM incident WHERE state = :state")
                .param("state", state.name()).query(Long.class).single();
    }

    private static Map<String, Object> params(Incident incident) {
        Map<String, Object> params = new HashMap<>();
        params.put("id", incident.id().value());
        params.put("subject", incident.subject());
        params.put("reason", incident.reason().name());
        params.put("state", incident.state().name());
        params.put("paymentId", incident.paymentId() == null ? null : incident.paymentId().value());
        params.put("orderId", incident.orderId() == null ? null : incident.orderId().value());
        params.put("amount", incident.amount() == null ? null : incident.amount().amount());
        params.put("currency", incident.amount() == null ? null : incident.amount().currency());
        params.put("pgTransactionKey", incident.pgTransactionKey());
        params.put("detail", incident.detail());
        params.put("attempts", incident.attempts());
        params.put("openedAt", timestamp(incident.openedAt()));
        params.put("acknowledgedBy", incident.acknowledgedBy());
        params.put("acknowledgedAt", timestamp(incident.acknowledgedAt()));
        params.put("acknowledgeNote", incident.acknowledgeNote());
        params.put("resolvedBy", incident.resolvedBy());
        params.put("resolvedAt", timestamp(incident.resolvedAt()));
        params.put("outcome", incident.outcome() == null ? null : incident.outcome().name());
        params.put("resolution", incident.resolution());
        params.put("updatedAt", timestamp(incident.updatedAt()));
        return params;
    }
}
