package dev.payments.outbox.inbox;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.kafka.support.micrometer.KafkaListenerObservation;
import org.springframework.kafka.support.micrometer.KafkaListenerObservation.DefaultKafkaListenerObservationConvention;
import org.springframework.kafka.support.micrometer.KafkaRecordReceiverContext;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Applies each event at most once per consumer: the event id goes into the inbox table in the same transaction as
 * the effect. A redelivery after a crash, a relay that sent a batch twice, or a replay from a timestamp finds the id
 * and changes nothing.
 *
 * <p>A poll's records are applied in <em>one</em> transaction (docs/decisions/consumer-errors.md, "One transaction
 * per poll"): one commit, one WAL flush for the batch instead of one per event, which is what let the consumers fall
 * ten thousand events behind at capacity. If that transaction fails, it is rolled back whole and the
 * records are applied again one at a time, each in its own transaction, so that the record at fault is the only one
 * the shared error handler sees ({@link DeadLetters}): the records before it are committed and acknowledged, it is
 * retried or dead-lettered by what its failure says, and the records after it are polled again.
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
    private final ConsumerFailures failures;
    private final ObservationRegistry observations;

    public Inbox(JdbcClient jdbc, TransactionTemplate transaction, String consumer, MeterRegistry meters,
                 ConsumerFailures failures, ObservationRegistry observations) {
        this.jdbc = jdbc;
        this.transaction = transaction;
        this.consumer = consumer;
        this.meters = meters;
        this.failures = failures;
        this.observations = observations;
    }

    /** As {@link #consume(List, Predicate, Consumer)} for a consumer that takes on every event. */
    public void consume(List<ConsumerRecord<String, String>> records, Consumer<EventEnvelope> effect) {
        consume(records, event -> true, effect);
    }

    /**
     * Applies a batch listener's records in order, each event once. An event this consumer leaves alone by rule
     * ({@code concerns} false) is acknowledged without an inbox row: ignoring an event twice is ignoring it once, and a
     * renewal run's thousands of charges leave no rows in a consumer they do not concern.
     *
     * @param concerns whether an event is this consumer's business; true for anything the effect would refuse, so
     *                 that a wrong event is still dead-lettered
     * @param effect   what the event does here; runs inside the inbox's transaction (join it, never start another)
     * @throws BatchListenerFailedException naming the record that could not be applied, every record before it
     *                                      applied and committed
     */
    public void consume(List<ConsumerRecord<String, String>> records, Predicate<DomainEvent> concerns,
                        Consumer<EventEnvelope> effect) {
        if (records.isEmpty()) {
            return;
        }
        List<Applied> applied;
        try {
            applied = transaction.execute(status -> {
                List<Applied> done = new ArrayList<>(records.size());
                for (ConsumerRecord<String, String> record : records) {
                    done.add(observed(record, () -> applyInTransaction(record, concerns, effect)));
                }
                return done;
            });
        } catch (RuntimeException batchFailure) {
            if (failures.classify(batchFailure) == FailureKind.TRANSIENT) {
                // The database is away: every record would fail alike. The first one waits it out in the error
                // handler; trying each of them now would only wait for a connection once per record.
                throw new BatchListenerFailedException("Database unavailable", batchFailure, records.get(0));
            }
            oneAtATime(records, concerns, effect);
            return;
        }
        applied.forEach(this::count);
    }

    /** After a failed batch: each record in its own transaction, until the one at fault. */
    private void oneAtATime(List<ConsumerRecord<String, String>> records, Predicate<DomainEvent> concerns,
                            Consumer<EventEnvelope> effect) {
        for (ConsumerRecord<String, String> record : records) {
            Applied applied;
            try {
                applied = observed(record, () -> transaction.execute(
                        status -> applyInTransaction(record, concerns, effect)));
            } catch (RuntimeException failure) {
                throw new BatchListenerFailedException("Could not apply " + FailedDeliveries.coordinates(record),
                        failure, record);
            }
            count(applied);
        }
    }

    private Applied applyInTransaction(ConsumerRecord<String, String> record, Predicate<DomainEvent> concerns,
                                       Consumer<EventEnvelope> effect) {
        EventEnvelope envelope = EventJson.read(record.value());
        if (!concerns.test(envelope.event())) {
            return new Applied(envelope, "ignored");
        }
        int inserted = jdbc.sql(RECORD)
                .param("consumer", consumer)
                .param("eventId", envelope.eventId())
                .param("type", envelope.type())
                .update();
        if (inserted == 0) {
            return new Applied(envelope, "duplicate");
        }
        effect.accept(envelope);
        return new Applied(envelope, "applied");
    }

    /**
     * Spring Kafka observes only record listeners; a batch listener's records get the same observation here, each
     * continuing the trace its {@code traceparent} header carries, so an event written by an effect carries it on.
     */
    private <T> T observed(ConsumerRecord<String, String> record, Supplier<T> work) {
        return KafkaListenerObservation.LISTENER_OBSERVATION.observation(null,
                        DefaultKafkaListenerObservationConvention.INSTANCE,
                        () -> new KafkaRecordReceiverContext(record, consumer, null, KafkaUtils.getConsumerGroupId(),
                                () -> null),
                        observations)
                .observe(work);
    }

    private void count(Applied applied) {
        Counter.builder("inbox.events")
                .tag("consumer", consumer)
                .tag("type", applied.envelope().type())
                .tag("outcome", applied.outcome())
                .register(meters)
                .increment();
    }

    /** What became of one event; counted once its transaction committed. */
    private record Applied(EventEnvelope envelope, String outcome) {
    }

    /** Whether this consumer has applied the event (for operators and the replay dry run). */
    public boolean hasApplied(EventEnvelope envelope) {
        return jdbc.sql("SELECT count(*) FROM inbox WHERE consumer = :consumer AND event_id = :eventId")
                .param("consumer", consumer)
                .param("eventId", envelope.eventId())
                .query(Integer.class).single() > 0;
    }
}
