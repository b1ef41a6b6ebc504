package dev.payments.outbox;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.sql.Timestamp;
import java.time.Clock;

/**
 * Appends a domain event to the outbox table on the caller's connection, inside the caller's transaction, so the
 * event exists if and only if the state change it describes was committed. Never opens a connection of its own.
 */
public class OutboxWriter {

    private static final String INSERT = """
            INSERT INTO outbox (id, aggregatetype, aggregateid, kafka_key, type, payload, traceparent, created_at)
            VALUES (:id, :aggregateType, :aggregateId, :kafkaKey, :type, CAST(:payload AS jsonb), :traceparent, :createdAt)
            """;

    private final JdbcClient jdbc;
    private final Clock clock;
    private final TraceContext traceContext;
    private final Counter appended;

    public OutboxWriter(JdbcClient jdbc, Clock clock, TraceContext traceContext) {
        this(jdbc, clock, traceContext, new SimpleMeterRegistry());
    }

    public OutboxWriter(JdbcClient jdbc, Clock clock, TraceContext traceContext, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.traceContext = traceContext;
        this.appended = Counter.builder("outbox.appended")
                .description("Outbox rows committed; with outbox_relay_published_total it shows a stalled relay")
                .register(meters);
    }

    /**
     * @throws IllegalTransactionStateException when called outside a read-write transaction: an event written on its
     *                                          own could be published for a change that never committed.
     */
    public EventEnvelope append(DomainEvent event) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
            throw new IllegalTransactionStateException(
                    "Outbox append must run inside the caller's read-write transaction: " + event.getClass().getSimpleName());
        }
        EventEnvelope envelope = EventEnvelope.wrap(event, clock.instant(), traceContext.currentTraceparent());
        jdbc.sql(INSERT)
                .param("id", envelope.eventId())
                .param("aggregateType", envelope.aggregateType())
                .param("aggregateId", envelope.aggregateId())
                .param("kafkaKey", event.orderId().toString())
                .param("type", envelope.type())
                .param("payload", EventJson.write(envelope))
                .param("traceparent", envelope.traceparent())
                .param("createdAt", Timestamp.from(envelope.occurredAt()))
                .update();
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                appended.increment();
            }
        });
        return envelope;
    }
}
