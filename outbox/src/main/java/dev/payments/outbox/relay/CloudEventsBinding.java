package dev.payments.outbox.relay;

import dev.payments.contracts.CloudEventHeaders;
import dev.payments.contracts.Topics;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;

/**
 * The one place both relays complete a record's headers with the CloudEvents binary-mode headers, from the headers
 * the outbox row already gave it (event id, type, creation time), its topic and its key (the order id). Whatever the
 * relay, the same row thus carries the same headers.
 */
final class CloudEventsBinding {

    private CloudEventsBinding() {
    }

    static RecordHeaders addTo(RecordHeaders headers, String topic, String orderId) {
        CloudEventHeaders.of(required(headers, Topics.HEADER_EVENT_ID), required(headers, Topics.HEADER_EVENT_TYPE),
                        CloudEventHeaders.aggregateTypeOf(topic), orderId,
                        required(headers, KafkaPublisher.HEADER_CREATED_AT))
                .forEach((name, value) -> headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
        return headers;
    }

    private static String required(RecordHeaders headers, String name) {
        Header header = headers.lastHeader(name);
        if (header == null || header.value() == null) {
            // The outbox table's columns are NOT NULL: a record without them is no outbox event and must not be sent.
            throw new IllegalArgumentException("Outbox record without header " + name);
        }
        return new String(header.value(), StandardCharsets.UTF_8);
    }
}
