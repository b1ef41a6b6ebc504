package dev.payments.outbox.inbox;

import java.util.Locale;

/** What a consumer's failure to apply an event says about the event; decides retry or dead-letter topic. */
public enum FailureKind {

    /**
     * The infrastructure failed, not the event (database refused, restarting, timed out, a serialization conflict):
     * the event would apply once it is back, so it is retried without limit and never dead-lettered.
     */
    TRANSIENT,

    /**
     * The event can never be applied here: not an envelope, a type this build does not know, or an effect that
     * refused it (an illegal transition). Dead-lettered at once, so it does not block its partition.
     */
    PERMANENT,

    /** Neither is known (most likely a bug): a few retries, then the dead-letter topic, with an ERROR log. */
    UNCLASSIFIED;

    /** The metric tag value. */
    public String tag() {
        return name().toLowerCase(Locale.ROOT);
    }
}
