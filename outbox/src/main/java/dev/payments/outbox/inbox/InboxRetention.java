package dev.payments.outbox.inbox;

import dev.payments.support.retention.RetentionRule;

import java.time.Duration;

/**
 * How long the inbox ({@code db/inbox}) remembers an event id (docs/operations.md, "Retention"). An id may be forgotten
 * only once the event can no longer reach the consumer again: Kafka keeps a record for the topic's {@code retention.ms}
 * (7 days, the broker's default, which every topic here keeps) after its segment rolls ({@code segment.ms}, 7 days
 * too), so a record can be read, redelivered or replayed from a timestamp for up to 14 days; 30 days leaves a consumer
 * group that lagged or a re-drive from a dead-letter topic (same retention) well inside.
 */
public final class InboxRetention {

    public static final Duration KEEP = Duration.ofDays(30);

    private InboxRetention() {
    }

    /** The rule {@code inbox} ({@code retention.keep.inbox}) every consuming service's retention job applies. */
    public static RetentionRule rule() {
        return RetentionRule.olderThan("inbox", "inbox", "received_at", KEEP);
    }
}
