package dev.payments.outbox.inbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.RetryListener;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an operator sees of a consumer's failures: {@code inbox.consumer.failures} (every failed delivery, by topic
 * and {@link FailureKind}), {@code inbox.dead.letters} (records parked, by topic and kind), and a log line for each.
 * A transient failure is a WARN: the event waits and nothing is lost; the alert on it says the consumers are stalled.
 */
public final class FailedDeliveries implements RetryListener {

    static final String FAILURES = "inbox.consumer.failures";
    static final String DEAD_LETTERS = "inbox.dead.letters";

    private static final Logger log = LoggerFactory.getLogger(FailedDeliveries.class);

    /** How many records' first failures are remembered: enough for every record failing at once, bounded. */
    private static final int REMEMBERED = 10_000;

    private final ConsumerFailures failures;
    private final MeterRegistry meters;
    private final Clock clock;
    /** First failure of each record still failing (not transient: those are never dead-lettered). */
    private final Map<String, Instant> firstFailures = Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
                    return size() > REMEMBERED;
                }
            });

    public FailedDeliveries(ConsumerFailures failures, MeterRegistry meters) {
        this(failures, meters, Clock.systemUTC());
    }

    FailedDeliveries(ConsumerFailures failures, MeterRegistry meters, Clock clock) {
        this.failures = failures;
        this.meters = meters;
        this.clock = clock;
    }

    /** When the record first failed in this consumer (now, if its failures were not seen). */
    Instant firstFailure(ConsumerRecord<?, ?> record) {
        Instant first = firstFailures.get(coordinates(record));
        return first != null ? first : clock.instant();
    }

    /**
     * Registers every counter of these topics at 0, so the first failure after start-up is an increase that
     * Prometheus sees (seed 000: a series born at 1 has no increase).
     */
    public void registerAtZero(Collection<String> topics) {
        for (String topic : topics) {
            for (FailureKind kind : FailureKind.values()) {
                failuresCounter(topic, kind);
                deadLettersCounter(topic, kind);
            }
        }
    }

    @Override
    public void failedDelivery(ConsumerRecord<?, ?> record, Exception exception, int deliveryAttempt) {
        FailureKind kind = failures.classify(exception);
        failuresCounter(record.topic(), kind).increment();
        if (kind != FailureKind.TRANSIENT) {
            firstFailures.putIfAbsent(coordinates(record), clock.instant());
        }
        switch (kind) {
            case TRANSIENT -> {
                // The first attempt carries the stack; later ones one line each, until the database is back.
                if (deliveryAttempt == 1) {
                    log.warn("{} cannot be applied while the database is unavailable; retrying until it is back",
                            coordinates(record), exception);
                } else {
                    log.warn("{} still waiting for the database (attempt {}): {}", coordinates(record),
                            deliveryAttempt, rootMessage(exception));
                }
            }
            case UNCLASSIFIED -> log.warn("{} failed (attempt {}); retried a few times, then dead-lettered",
                    coordinates(record), deliveryAttempt, exception);
            case PERMANENT -> {
                // The dead-letter recoverer logs it at ERROR with the topic it went to.
            }
        }
    }

    @Override
    public void recovered(ConsumerRecord<?, ?> record, Exception exception) {
        deadLettersCounter(record.topic(), failures.classify(exception)).increment();
        firstFailures.remove(coordinates(record));
    }

    @Override
    public void recoveryFailed(ConsumerRecord<?, ?> record, Exception original, Exception failure) {
        // The record stays on its partition and is tried again; nothing is skipped.
        log.error("{} could not be dead-lettered; it will be retried", coordinates(record), failure);
    }

    private Counter failuresCounter(String topic, FailureKind kind) {
        return Counter.builder(FAILURES)
                .description("Failed deliveries of a record to a consumer, by what the failure says about the event")
                .tag("topic", topic).tag("kind", kind.tag()).register(meters);
    }

    private Counter deadLettersCounter(String topic, FailureKind kind) {
        return Counter.builder(DEAD_LETTERS).description("Records sent to a dead-letter topic")
                .tag("topic", topic).tag("kind", kind.tag()).register(meters);
    }

    static String coordinates(ConsumerRecord<?, ?> record) {
        return record.topic() + "-" + record.partition() + "@" + record.offset() + " (key " + record.key() + ")";
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
