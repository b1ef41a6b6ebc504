package dev.payments.outbox.inbox;

import dev.payments.contracts.MalformedEventException;
import dev.payments.contracts.Topics;
import dev.payments.contracts.UnknownEventTypeException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);

    private DeadLetters() {
    }

    public static DefaultErrorHandler errorHandler(KafkaOperations<?, ?> template, String defaultGroup,
                                                   int maxRetries, Duration initialBackoff, MeterRegistry meters) {
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(template, (record, exception) -> {
            String group = KafkaUtils.getConsumerGroupId();
            String deadLetterTopic = Topics.deadLetter(record.topic(), group != null ? group : defaultGroup);
            // An operator must see this: the event's effect did not happen in this service.
            log.error("Dead-lettering {}-{}@{} (key {}) to {}", record.topic(), record.partition(), record.offset(),
                    record.key(), deadLetterTopic, exception);
            Counter.builder("inbox.dead.letters").description("Records sent to a dead-letter topic")
                    .tag("topic", record.topic()).register(meters).increment();
            return new TopicPartition(deadLetterTopic, -1);
        });
        ExponentialBackOff backOff = new ExponentialBackOff(initialBackoff.toMillis(), 2.0);
        backOff.setMaxElapsedTime(initialBackoff.toMillis() * ((1L << maxRetries) - 1));
        DefaultErrorHandler handler = new DefaultErrorHandler(recoverer, backOff);
        handler.addNotRetryableExceptions(UnknownEventTypeException.class, MalformedEventException.class);
        return handler;
    }
}
