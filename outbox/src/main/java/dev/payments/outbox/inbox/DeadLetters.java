package dev.payments.outbox.inbox;

import dev.payments.contracts.MalformedEventException;
import dev.payments.contracts.Topics;
import dev.payments.contracts.UnknownEventTypeException;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;

/**
 * The error handling every consumer shares: a few retries with backoff for transient failures (database busy), then
 * the record goes to {@code <topic>.<group>.dlt}. A message that can never succeed (unknown type, not an envelope)
 * goes there at once instead of blocking its partition.
 */
public final class DeadLetters {

    private DeadLetters() {
    }

    public static DefaultErrorHandler errorHandler(KafkaOperations<?, ?> template, String defaultGroup,
                                                   int maxRetries, Duration initialBackoff) {
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(template, (record, exception) -> {
            String group = KafkaUtils.getConsumerGroupId();
            return new TopicPartition(Topics.deadLetter(record.topic(), group != null ? group : defaultGroup), -1);
        });
        ExponentialBackOff backOff = new ExponentialBackOff(initialBackoff.toMillis(), 2.0);
        backOff.setMaxElapsedTime(initialBackoff.toMillis() * ((1L << maxRetries) - 1));
        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, backOff);
        handler.addNotRetryableExceptions(UnknownEventTypeException.class, MalformedEventException.class);
        return handler;
    }
}
