package dev.payments.outbox.inbox;

import dev.payments.contracts.Topics;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.kafka.listener.ConsumerAwareRecordRecoverer;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The error handling every consumer shares (docs/decisions/consumer-errors.md). What a failure says about the event
 * ({@link ConsumerFailures}) decides what happens to it:
 * <ul>
 *   <li>{@link FailureKind#TRANSIENT}: retried without limit, with an exponential back-off capped at a few seconds,
 *       the listener paused in between ({@link ListenerPauses}); the record keeps its place, so its order's later
 *       events wait behind it instead of overtaking it;</li>
 *   <li>{@link FailureKind#PERMANENT}: to {@code <topic>.<group>.dlt} at once, so it does not block its partition;</li>
 *   <li>{@link FailureKind#UNCLASSIFIED}: a few retries, then the dead-letter topic.</li>
 * </ul>
 */
public final class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
    private static final BackOff AT_ONCE = new FixedBackOff(0, 0);

    /** Header of a dead letter: when its record first failed in this consumer (epoch milliseconds). */
    public static final String HEADER_FIRST_FAILURE = "inbox_first_failure";
    /** Header of a dead letter: the {@link FailureKind} tag that parked it. */
    public static final String HEADER_FAILURE_KIND = "inbox_failure_kind";

    private DeadLetters() {
    }

    private static String group(String defaultGroup) {
        String group = KafkaUtils.getConsumerGroupId();
        return group != null ? group : defaultGroup;
    }

    /**
     * @param template        publishes to the dead-letter topics
     * @param defaultGroup    the consumer group that names a dead-letter topic when the listener's is unknown
     * @param policy          the two back-offs
     * @param failures        the classification
     * @param deliveries      metrics and logs of every failed delivery and dead letter
     * @param backOffHandler  how a back-off is waited out
     */
    public static DefaultErrorHandler errorHandler(KafkaOperations<?, ?> template, String defaultGroup, Policy policy,
                                                   ConsumerFailures failures, FailedDeliveries deliveries,
                                                   BackOffHandler backOffHandler) {
        DeadLetterPublishingRecoverer publisher = new DeadLetterPublishingRecoverer(template, (record, exception) -> {
            String group = group(defaultGroup);
            // A re-driven record that fails again goes back to its source topic's dead letters, where it came from.
            String deadLetterTopic = Topics.deadLetter(Topics.source(record.topic(), group), group);
            // An operator must see this: the event's effect did not happen in this service.
            log.error("Dead-lettering {} to {} ({} failure)", FailedDeliveries.coordinates(record), deadLetterTopic,
                    failures.classify(exception).tag(), exception);
            return new TopicPartition(deadLetterTopic, -1);
        });
        // What the operator's list shows beside Spring Kafka's kafka_dlt-* headers (exception, original coordinates).
        publisher.setHeadersFunction((record, exception) -> {
            RecordHeaders headers = new RecordHeaders();
            headers.add(HEADER_FIRST_FAILURE, Long.toString(deliveries.firstFailure(record).toEpochMilli())
                    .getBytes(StandardCharsets.UTF_8));
            headers.add(HEADER_FAILURE_KIND, failures.classify(exception).tag().getBytes(StandardCharsets.UTF_8));
            return headers;
        });
        ConsumerAwareRecordRecoverer recoverer = (record, consumer, exception) ->
                publisher.accept(record, consumer, withoutBatchWrapper(exception));
        BackOff unclassified = policy.unclassifiedBackOff();
        BackOff whileUnavailable = policy.transientBackOff();
        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, unclassified, backOffHandler);
        // One decision point: Spring Kafka's own not-retryable list is part of ConsumerFailures' PERMANENT.
        handler.setClassifications(Map.of(), true);
        handler.setBackOffFunction((record, exception) -> switch (failures.classify(exception)) {
            case TRANSIENT -> whileUnavailable;
            case PERMANENT -> AT_ONCE;
            case UNCLASSIFIED -> unclassified;
        });
        handler.setRetryListeners(deliveries);
        return handler;
    }

    /**
     * A batch listener's failure reaches the handler as the listener's exception around the {@link Inbox}'s
     * {@link BatchListenerFailedException} around the event's own; without the middle one, a dead letter's exception
     * headers (what the operator's list shows) name what a record listener's did: the event's own failure as the
     * cause, not "could not apply".
     */
    static Exception withoutBatchWrapper(Exception exception) {
        if (exception instanceof ListenerExecutionFailedException listener
                && listener.getCause() instanceof BatchListenerFailedException batch
                && batch.getCause() != null) {
            return new ListenerExecutionFailedException(listener.getMessage(), listener.getGroupId(), batch.getCause());
        }
        return exception;
    }

    /**
     * @param maxRetries           retries of an unclassified failure before it is dead-lettered
     * @param initialBackoff       first pause between those, doubled each time
     * @param transientBackoff     first pause while the infrastructure is unavailable, doubled each time
     * @param transientMaxBackoff  the longest pause then: how late a consumer resumes after the database is back
     */
    public record Policy(int maxRetries, Duration initialBackoff, Duration transientBackoff,
                         Duration transientMaxBackoff) {

        public Policy {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("inbox.max-retries must be 0 or more, not " + maxRetries);
            }
            if (initialBackoff.isNegative() || initialBackoff.isZero() || transientBackoff.isNegative()
                    || transientBackoff.isZero()) {
                throw new IllegalArgumentException("inbox back-offs must be positive");
            }
            if (transientMaxBackoff.compareTo(transientBackoff) < 0) {
                throw new IllegalArgumentException("inbox.transient-retry.max-backoff " + transientMaxBackoff
                        + " is below its initial back-off " + transientBackoff);
            }
        }

        BackOff unclassifiedBackOff() {
            ExponentialBackOff backOff = new ExponentialBackOff(initialBackoff.toMillis(), 2.0);
            backOff.setMaxAttempts(maxRetries);
            return backOff;
        }

        /** Unlimited: no attempt count, no elapsed-time limit. */
        BackOff transientBackOff() {
            ExponentialBackOff backOff = new ExponentialBackOff(transientBackoff.toMillis(), 2.0);
            backOff.setMaxInterval(transientMaxBackoff.toMillis());
            return backOff;
        }
    }
}
