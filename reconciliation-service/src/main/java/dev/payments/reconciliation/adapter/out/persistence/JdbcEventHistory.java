package dev.payments.reconciliation.adapter.out.persistence;

import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.domain.projection.EventRef;
import dev.payments.reconciliation.domain.projection.ProjectedEvent;
import dev.payments.reconciliation.domain.projection.ProjectionEffect;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.payments.reconciliation.adapter.out.persistence.Rows.instant;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.timestamp;
import static dev.payments.reconciliation.adapter.out.persistence.Rows.uuid;

@Repository
class JdbcEventHistory implements EventHistory {

    private static final String SELECT = """
            SELECT event_id, event_type, aggregate, order_id, payment_id, occurred_at, received_at, effect FROM projected_event
            """;

    private static final RowMapper<ProjectedEvent> MAPPER = (row, n) -> {
        UUID paymentId = uuid(row, "payment_id");
        return new ProjectedEvent(
                new EventRef(uuid(row, "event_id"), row.getString("event_type"), instant(row, "occurred_at")),
                ProjectedEvent.Aggregate.valueOf(row.getString("aggregate")), new OrderId(uuid(row, "order_id")),
                paymentId == null ? null : new PaymentId(paymentId),
                instant(row, "received_at"), ProjectionEffect.valueOf(row.getString("effect")));
    };

    private final JdbcClient jdbc;

    JdbcEventHistory(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public void append(ProjectedEvent event) {
        Map<String, Object> params = new HashMap<>();
        params.put("eventId", event.event().eventId());
        params.put("type", event.event().type());
        params.put("aggregate", event.aggregate().name());
        params.put("orderId", event.orderId().value());
        params.put("paymentId", event.paymentId() == null ? null : event.paymentId().value());
        params.put("occurredAt", timestamp(event.event().occurredAt()));
        params.put("receivedAt", timestamp(event.receivedAt()));
        params.put("effect", event.effect().name());
        jdbc.sql("""
                        INSERT INTO projected_event
                            (event_id, event_type, aggregate, order_id, payment_id, occurred_at, received_at, effect)
                        VALUES (:eventId, :type, :aggregate, :orderId, :paymentId, :occurredAt, :receivedAt, :effect)""")
                .params(params).update();
    }

    @Override
    public List<ProjectedEvent> ofPayment(PaymentId paymentId) {
        return jdbc.sql(SELECT + "WHERE payment_id = :paymentId AND aggregate = 'PAYMENT' ORDER BY occurred_at, received_at")
                .param("paymentId", paymentId.value()).query(MAPPER).list();
    }

    @Override
    public List<ProjectedEvent> ofOrder(OrderId orderId) {
        return jdbc.sql(SELECT + "WHERE order_id = :orderId ORDER BY occurred_at, received_at")
                .param("orderId", orderId.value()).query(MAPPER).list();
    }
}
