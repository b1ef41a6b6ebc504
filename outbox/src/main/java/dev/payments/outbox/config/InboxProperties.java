package dev.payments.outbox.config;

import dev.payments.outbox.inbox.DeadLetters;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The inbox and the consumers' error handling (docs/decisions/consumer-errors.md).
 *
 * @param enabled        whether this service consumes through the inbox at all
 * @param maxRetries     retries of a failure that is neither transient nor known to be permanent, before the record
 *                       goes to the dead-letter topic
 * @param initialBackoff first pause between those retries, doubled each time (4 from 200 ms: about 3 s)
 * @param transientRetry retries while the database is unavailable, which never end in the dead-letter topic
 */
@ConfigurationProperties("inbox")
public record InboxProperties(@DefaultValue("true") boolean enabled,
                              @DefaultValue("4") int maxRetries,
                              @DefaultValue("200ms") Duration initialBackoff,
                              @DefaultValue TransientRetry transientRetry) {

    /**
     * @param initialBackoff first pause, doubled each time
     * @param maxBackoff     the longest pause: after the database is back, a consumer resumes within this (plus
     *                       one attempt); 5 s against a 90 s outage costs nothing and keeps recovery quick
     */
    public record TransientRetry(@DefaultValue("500ms") Duration initialBackoff,
                                 @DefaultValue("5s") Duration maxBackoff) {
    }

    DeadLetters.Policy policy() {
        return new DeadLetters.Policy(maxRetries, initialBackoff, transientRetry.initialBackoff(),
                transientRetry.maxBackoff());
    }
}
