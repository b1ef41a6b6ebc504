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
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

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
        requireTransaction("append " + event.getClass().getSimpleName());
        EventEnvelope envelope = EventEnvelope.wrap(event, clock.instant(), traceContext.currentTraceparent());
        insert(envelope, event.orderId().toString());
        countAfterCommit(1);
        return envelope;
    }

    /**
     * Publishes an aggregate's events again, each with its own event id, in the order they were written: a consumer
     * that applied one changes nothing (its inbox has the id), one that lost it (dead-lettered, skipped) applies it
     * now, in order. Each row is deleted and inserted again in the caller's transaction; the publication streams
     * inserts only, so the relay sends each once more. Only rows still kept (the cleanup's retention) can be sent.
     *
     * @param since the aggregate's rows are looked for from here on (the outbox is indexed by time, not aggregate)
     * @return the envelopes sent again, oldest first; empty if none is kept
     * @throws IllegalTransactionStateException outside a read-write transaction
     */
    public List<EventEnvelope> resend(String aggregateType, String aggregateId, Instant since) {
        requireTransaction("resend " + aggregateType + " " + aggregateId);
        List<Kept> kept = jdbc.sql("""
                        DELETE FROM outbox WHERE id IN (
                            SELECT id FROM outbox
                            WHERE created_at >= :since AND aggregatetype = :aggregateType AND aggregateid = :aggregateId
                            FOR UPDATE)
                        RETURNING kafka_key, payload::text""")
                .param("since", Timestamp.from(since))
                .param("aggregateType", aggregateType)
                .param("aggregateId", aggregateId)
                .query((row, n) -> new Kept(row.getString(1), EventJson.read(row.getString(2))))
                .list().stream()
                .sorted(Comparator.comparing(k -> k.envelope().occurredAt()))
                .toList();
        kept.forEach(row -> insert(row.envelope(), row.kafkaKey()));
        List<EventEnvelope> resent = kept.stream().map(Kept::envelope).toList();
        countAfterCommit(resent.size());
        return resent;
    }

    private record Kept(String kafkaKey, EventEnvelope envelope) {
    }

    private void insert(EventEnvelope envelope, String kafkaKey) {
        jdbc.sql(INSERT)
                .param("id", envelope.eventId())
                .param("aggregateType", envelope.aggregateType())
                .param("aggregateId", envelope.aggregateId())
                .param("kafkaKey", kafkaKey)
                .param("type", envelope.type())
                .param("payload", EventJson.write(envelope))
                .param("traceparent", envelope.traceparent())
                .param("createdAt", Timestamp.from(envelope.occurredAt()))
                .update();
    }

    private static void requireTransaction(String what) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()
                || TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
            throw new IllegalTransactionStateException(
                    "Outbox " + what + " must run inside the caller's read-write transaction");
        }
    }

    private void countAfterCommit(int rows) {
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                appended.increment(rows);
            }
        });
    }
}
