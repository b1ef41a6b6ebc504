package dev.payments.contracts;

/** Topic names. Every event topic is keyed by order id. */
public final class Topics {

    static final String SUFFIX = ".events";

    public static final String ORDER_EVENTS = "order" + SUFFIX;
    public static final String PAYMENT_EVENTS = "payment" + SUFFIX;

    /** Kafka header carrying the event id (set by the outbox relay; also inside the envelope). */
    public static final String HEADER_EVENT_ID = "id";
    /** Kafka header carrying the logical event type. */
    public static final String HEADER_EVENT_TYPE = "eventType";
    /** Kafka header carrying the W3C trace context of the request that caused the event. */
    public static final String HEADER_TRACEPARENT = "traceparent";

    private Topics() {
    }

    /** The dead-letter topic of one consumer group reading {@code topic}. */
    public static String deadLetter(String topic, String consumerGroup) {
        return topic + "." + consumerGroup + ".dlt";
    }

    /**
     * The re-drive topic of one consumer group reading {@code topic}: what an operator hands back to that group alone
     * (a dead letter, an order's events), read by the group's listener of {@code topic} beside it
     * (docs/decisions/dead-letter-redrive.md).
     */
    public static String redrive(String topic, String consumerGroup) {
        return topic + "." + consumerGroup + ".redrive";
    }

    /** The topic a record of {@code topic} belongs to for {@code consumerGroup}: its source if it is a re-drive topic. */
    public static String source(String topic, String consumerGroup) {
        String suffix = "." + consumerGroup + ".redrive";
        return topic.endsWith(suffix) ? topic.substring(0, topic.length() - suffix.length()) : topic;
    }
}
