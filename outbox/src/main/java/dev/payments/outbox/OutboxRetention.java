package dev.payments.outbox;

import dev.payments.support.retention.RetentionRule;

import java.time.Duration;

/**
 * Which outbox rows a service's retention job may remove (docs/operations.md, "Retention"): the rule {@code outbox}
 * on {@code outbox.created_at} with this condition and keep, which the library declares for every service with an
 * outbox. The condition is the library's, because only it knows what "published" means here.
 */
public final class OutboxRetention {

    /**
     * Published: every relay's watermark ({@code outbox_relay.published_through}, the snapshot whose visible
     * transactions are all in Kafka) sees the row's transaction. No relay row yet means nothing is published. An
     * unpublished row is never removed, however old: it may be exactly the one a relay still has to send.
     */
    public static final String PUBLISHED = "EXISTS (SELECT 1 FROM outbox_relay) AND NOT EXISTS (SELECT 1 FROM"
            + " outbox_relay r WHERE NOT pg_visible_in_snapshot(outbox.tx_id, r.published_through))";

    /** Published rows are kept 72 hours for inspection and an operator's republish of a recent outcome. */
    public static final Duration KEEP = Duration.ofHours(72);

    private OutboxRetention() {
    }

    /** The rule {@code outbox} ({@code retention.keep.outbox}) every publishing service's retention job applies. */
    public static RetentionRule rule() {
        return new RetentionRule("outbox", "outbox", "created_at", PUBLISHED, KEEP);
    }
}
