package dev.payments.contracts;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The golden example of every event type ({@code contracts/golden/<WireName>.json}). Producer tests check that what
 * they publish has the golden shape; consumer tests feed the golden text to their listener. A contract change thus
 * breaks a build on both sides, not production.
 */
public final class GoldenEvents {

    public static final UUID ORDER_ID = UUID.fromString("0b5f8a3e-6c1d-4f7a-9a55-2d3c4b5a6f70");
    public static final UUID PAYMENT_ID = UUID.fromString("7d2e9c41-83b0-4a6e-b1f2-5e6d7c8b9a01");
    public static final String MEMBER_ID = "member-1";
    public static final UUID REFUND_ID = UUID.fromString("3c9a1f52-7e4b-4d21-8f60-a1b2c3d4e5f6");
    public static final long AMOUNT = 15_000;
    public static final String CURRENCY = "KRW";
    private static final Instant AT = Instant.parse("2026-11-29T07:50:00Z");
    /** {@link #AT} as a relay renders the outbox row's {@code created_at} (microseconds, UTC) in {@code ce_time}. */
    public static final String AT_AS_RELAYED = "2026-11-29T07:50:00.000000Z";

    private GoldenEvents() {
    }

    /** The domain event each golden file holds. */
    public static DomainEvent sample(EventType type) {
        return switch (type) {
            case ORDER_CREATED -> new OrderCreated(ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "Annual plan");
            case ORDER_PAYMENT_PENDING -> new OrderPaymentPending(ORDER_ID, PAYMENT_ID);
            case ORDER_PAID -> new OrderPaid(ORDER_ID, PAYMENT_ID);
            case ORDER_FAILED -> new OrderFailed(ORDER_ID, PAYMENT_ID, "PAYMENT_DECLINED");
            case ORDER_CANCELED -> new OrderCanceled(ORDER_ID, PAYMENT_ID, "CUSTOMER_REQUEST");
            case ORDER_PARTIALLY_REFUNDED -> new OrderPartiallyRefunded(ORDER_ID, PAYMENT_ID, 4_000, AMOUNT, CURRENCY);
            case ORDER_REFUNDED -> new OrderRefunded(ORDER_ID, PAYMENT_ID, AMOUNT, CURRENCY);
            case PAYMENT_REQUESTED -> new PaymentRequested(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY, "pk_0001", PaymentPurpose.ORDER);
            case PAYMENT_APPROVED -> new PaymentApproved(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "txn_0001", AT, PaymentPurpose.ORDER);
            case PAYMENT_DECLINED -> new PaymentDeclined(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "EXCEED_MAX_CARD_LIMIT", "Card limit exceeded", PaymentPurpose.ORDER);
            case PAYMENT_FAILED -> new PaymentFailed(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "PG_CONNECT_FAILED", PaymentPurpose.ORDER);
            case PAYMENT_UNKNOWN -> new PaymentUnknown(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "PG_READ_TIMEOUT", PaymentPurpose.ORDER);
            case PAYMENT_CANCEL_OWED -> new PaymentCancelOwed(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "LATE_APPROVAL", "txn_0001", AT, PaymentPurpose.ORDER);
            case PAYMENT_CANCELED -> new PaymentCanceled(PAYMENT_ID, ORDER_ID, MEMBER_ID, AMOUNT, CURRENCY,
                    "COMPENSATION", AT, PaymentPurpose.ORDER);
            case REFUND_REQUESTED -> new RefundRequested(REFUND_ID, PAYMENT_ID, ORDER_ID, MEMBER_ID, 4_000, CURRENCY,
                    AMOUNT, MEMBER_ID, PaymentPurpose.ORDER);
            case REFUND_SUCCEEDED -> new RefundSucceeded(REFUND_ID, PAYMENT_ID, ORDER_ID, MEMBER_ID, 4_000, CURRENCY,
                    4_000, AMOUNT, "txn_0002", AT, PaymentPurpose.ORDER);
            case REFUND_FAILED -> new RefundFailed(REFUND_ID, PAYMENT_ID, ORDER_ID, MEMBER_ID, 4_000, CURRENCY,
                    "NOT_CANCELABLE_AMOUNT", PaymentPurpose.ORDER);
            case REFUND_UNKNOWN -> new RefundUnknown(REFUND_ID, PAYMENT_ID, ORDER_ID, MEMBER_ID, 4_000, CURRENCY,
                    "PG_READ_TIMEOUT", PaymentPurpose.ORDER);
        };
    }

    /** The event id every golden file uses. */
    public static UUID eventId(EventType type) {
        return UUID.nameUUIDFromBytes(type.wireName().getBytes(StandardCharsets.UTF_8));
    }

    /** The envelope each golden file holds, built from {@link #sample(EventType)}. */
    public static EventEnvelope sampleEnvelope(EventType type) {
        return EventEnvelope.wrap(eventId(type), sample(type), AT,
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    }

    /** The golden file's text. */
    public static String json(EventType type) {
        return text("/contracts/golden/" + type.wireName() + ".json");
    }

    private static String text(String resource) {
        try (InputStream in = GoldenEvents.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Missing golden file " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The golden text of {@code type} with its ids (and member) replaced, so tests that publish golden events do not
     * collide with each other.
     */
    public static String json(EventType type, UUID orderId, UUID paymentId, UUID eventId, String memberId) {
        return json(type)
                .replace(ORDER_ID.toString(), orderId.toString())
                .replace(PAYMENT_ID.toString(), paymentId.toString())
                .replace(eventId(type).toString(), eventId.toString())
                .replace("\"" + MEMBER_ID + "\"", "\"" + memberId + "\"");
    }

    /**
     * The golden Kafka headers of {@code type} as a relay places them ({@code contracts/golden/headers.json}): the
     * event id and type our consumers read, and the CloudEvents binary-mode headers, in order. The relay's
     * bookkeeping headers ({@code traceparent}, {@code createdAt}) are no part of the contract and not in the file.
     */
    public static Map<String, String> headers(EventType type) {
        JsonNode golden = EventJson.readTree(text("/contracts/golden/headers.json")).path(type.wireName());
        if (!golden.isObject()) {
            throw new IllegalStateException("No golden headers for " + type.wireName());
        }
        Map<String, String> headers = new LinkedHashMap<>();
        golden.fields().forEachRemaining(field -> headers.put(field.getKey(), field.getValue().asText()));
        return headers;
    }

    /** The golden headers of {@code type} with the ids and the time of one published event. */
    public static Map<String, String> headers(EventType type, UUID orderId, UUID eventId, String time) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers(type).forEach((name, value) -> headers.put(name, value
                .replace(ORDER_ID.toString(), orderId.toString())
                .replace(eventId(type).toString(), eventId.toString())
                .replace(AT_AS_RELAYED, time)));
        return headers;
    }

    /**
     * Differences between the shape (field paths and JSON node types) of a published message and the golden file of
     * its type; empty when they agree. Values are not compared: ids and times differ on every run.
     */
    public static List<String> shapeDifferences(String publishedJson) {
        JsonNode published = EventJson.readTree(publishedJson);
        EventType type = EventType.fromWireName(published.path("type").asText())
                .orElseThrow(() -> new IllegalArgumentException("Unknown type in " + publishedJson));
        Map<String, String> expected = shape(EventJson.readTree(json(type)));
        Map<String, String> actual = shape(published);
        List<String> differences = new ArrayList<>();
        expected.forEach((path, kind) -> {
            String actualKind = actual.get(path);
            if (actualKind == null) {
                differences.add("missing " + path);
            } else if (!actualKind.equals(kind) && !"NULL".equals(actualKind) && !"NULL".equals(kind)) {
                differences.add(path + " is " + actualKind + ", golden has " + kind);
            }
        });
        actual.keySet().stream().filter(path -> !expected.containsKey(path))
                .forEach(path -> differences.add("not in golden file: " + path));
        return differences;
    }

    private static Map<String, String> shape(JsonNode root) {
        Map<String, String> shape = new TreeMap<>();
        collect("", root, shape);
        return shape;
    }

    private static void collect(String path, JsonNode node, Map<String, String> shape) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                collect(path.isEmpty() ? field.getKey() : path + "." + field.getKey(), field.getValue(), shape);
            }
        } else {
            shape.put(path, node.getNodeType().name());
        }
    }
}
