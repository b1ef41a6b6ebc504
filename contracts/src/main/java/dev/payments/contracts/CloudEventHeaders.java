package dev.payments.contracts;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CloudEvents 1.0 Kafka protocol binding headers in binary mode: the record value stays our envelope JSON (so
 * existing consumers read it as before) and the event's context travels as {@code ce_*} headers, which an
 * off-the-shelf CloudEvents consumer understands. Both outbox relays place exactly these, so a consumer cannot tell
 * which relay sent a record; consumer tests publish them too (docs/architecture.md, "Events on the wire").
 */
public final class CloudEventHeaders {

    public static final String SPEC_VERSION = "ce_specversion";
    public static final String ID = "ce_id";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    /** The binding maps the event's {@code datacontenttype} to the Kafka {@code content-type} header, unprefixed. */
    public static final String CONTENT_TYPE = "content-type";

    public static final String SPEC_VERSION_1_0 = "1.0";
    public static final String JSON = "application/json";
    /** CloudEvents asks for a reverse-DNS prefix on {@code type}; the wire name after it is the {@code eventType}. */
    public static final String TYPE_PREFIX = "dev.payments.";

    private CloudEventHeaders() {
    }

    /**
     * The headers of one event, in the order (a {@link LinkedHashMap}) they are added to a record.
     *
     * @param eventId       the event id (also the {@code id} header and the envelope's {@code eventId}): consumers'
     *                      dedupe key, unique per source as CloudEvents requires
     * @param eventType     the logical wire name ({@link EventType#wireName()})
     * @param aggregateType the outbox row's aggregate type, whose service is the event's source
     * @param orderId       the order the event belongs to (the record key): the subject
     * @param time          when the event was recorded, RFC 3339 (the outbox row's {@code created_at})
     */
    public static Map<String, String> of(String eventId, String eventType, String aggregateType,
                                          String orderId, String time) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(SPEC_VERSION, SPEC_VERSION_1_0);
        headers.put(ID, eventId);
        headers.put(TYPE, TYPE_PREFIX + eventType);
        headers.put(SOURCE, source(aggregateType));
        headers.put(TIME, time);
        headers.put(SUBJECT, orderId);
        headers.put(CONTENT_TYPE, JSON);
        return headers;
    }

    /** The producing service as a URI reference: {@code /order-service}, {@code /payment-service}. */
    public static String source(String aggregateType) {
        return "/" + aggregateType + "-service";
    }

    /** The aggregate type a relayed record was routed by ({@code <aggregateType>.events}). */
    public static String aggregateTypeOf(String topic) {
        if (!topic.endsWith(Topics.SUFFIX)) {
            throw new IllegalArgumentException("Not an event topic: " + topic);
        }
        return topic.substring(0, topic.length() - Topics.SUFFIX.length());
    }
}
