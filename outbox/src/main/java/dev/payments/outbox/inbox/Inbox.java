package dev.payments.outbox.inbox;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Applies each event at most once per consumer: the event id goes into the inbox table in the same transaction as
 * the effect. A redelivery after a crash, a relay that sent a batch twice, or a replay from a timestamp finds the id
 * and changes nothing. If the effect throws, the id is rolled back with it and the error handler retries.
 */
public class Inbox {

    private static final String RECORD = """
            INSERT INTO inbox (consumer, event_id, event_type) VALUES (:consumer, :eventId, :type)
            ON CONFLICT DO NOTHING
            """;

    private final JdbcClient jdbc;
    private final TransactionTemplate transaction;
    private final String consumer;
    private final MeterRegistry meters;

    public Inbox(JdbcClient jdbc, TransactionTemplate transaction, String consumer, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.consumer = consumer;
        this.meters = meters;
    }

    /** Parses a Kafka record and applies it once; see {@link #apply(EventEnvelope, Consumer)}. */
    public boolean consume(ConsumerRecord<String, String> record, Consumer<DomainEvent> effect) {
        return apply(EventJson.read(record.value()), effect);
    }

    /**
     * As {@link #consume(ConsumerRecord, Consumer)}, except that an event this consumer leaves alone by rule
     * ({@code concerns} false) is acknowledged without a transaction: ignoring an event twice is ignoring it once, so
     * it needs no inbox row. A renewal run's ten thousand charges are none of order-service's business; one commit
     * each put its customers' own payment events behind a backlog of thousands (renewals drill, 2026-12-01).
     *
     * @return true if the effect ran, false if the event was ignored or already applied
     */
    public boolean consume(ConsumerRecord<String, String> record, Predicate<DomainEvent> concerns,
                           Consumer<DomainEvent> effect) {
        EventEnvelope envelope = EventJson.read(record.value());
        if (!concerns.test(envelope.event())) {
            count(envelope, "ignored");
            return false;
        }
        return apply(envelope, effect);
    }

    /**
     * @return true if the effect ran, false if this consumer had already applied the event
     */
    public boolean apply(EventEnvelope envelope, Consumer<DomainEvent> effect) {
        DomainEvent event = envelope.event();
        return applyEnvelope(envelope, ignored -> effect.accept(event));
    }

    /** As {@link #apply(EventEnvelope, Consumer)}, for effects that need the envelope (event id, time, trace). */
    public boolean applyEnvelope(EventEnvelope envelope, Consumer<EventEnvelope> effect) {
        Boolean applied = transaction.execute(status -> {
            int inserted = jdbc.sql(RECORD)
                    .param("consumer", consumer)
                    .param("eventId", envelope.eventId())
                    .param("type", envelope.type())
                    .update();
            if (inserted == 0) {
                return false;
            }
            effect.accept(envelope);
            return true;
        });
        boolean ran = Boolean.TRUE.equals(applied);
        count(envelope, ran ? "applied" : "duplicate");
        return ran;
    }

    private void count(EventEnvelope envelope, String outcome) {
        Counter.builder("inbox.events")
                .tag("consumer", consumer)
                .tag("type", envelope.type())
                .tag("outcome", outcome)
                .register(meters)
                .increment();
    }

    /** Whether this consumer has applied the event (for operators and the replay dry run). */
    public boolean hasApplied(EventEnvelope envelope) {
        return jdbc.sql("SELECT count(*) FROM inbox WHERE consumer = :consumer AND event_id = :eventId")
                .param("consumer", consumer)
                .param("eventId", envelope.eventId())
                .query(Integer.class).single() > 0;
    }
}
