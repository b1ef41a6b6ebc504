package dev.payments.outbox.relay;

import dev.payments.contracts.Topics;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Future;

/**
 * The relay's publish as an OpenTelemetry messaging PRODUCER span ({@code send <topic>}, {@code messaging.system=kafka},
 * destination, message id = event id), started as a child of the {@code traceparent} the outbox row stored (the span
 * that wrote it, inside the request) and ended when Kafka acknowledges or refuses the record. The record's
 * {@code traceparent} is then the PRODUCER span's, so each consumer's span is the publish's child. A row without a
 * stored trace is sent as it is: a trace of the publish alone would say nothing.
 */
public final class TracedPublishing implements PublishTracing {

    private static final Propagator.Getter<Headers> READ = (headers, key) -> {
        Header header = headers.lastHeader(key);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    };
    private static final Propagator.Setter<Headers> WRITE = (headers, key, value) -> {
        if (headers != null) {
            headers.remove(key);
            headers.add(key, value.getBytes(StandardCharsets.UTF_8));
        }
    };

    private final Tracer tracer;
    private final Propagator propagator;

    public TracedPublishing(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    @Override
    public Future<RecordMetadata> send(Producer<String, String> producer, ProducerRecord<String, String> record) {
        if (READ.get(record.headers(), Topics.HEADER_TRACEPARENT) == null) {
            return producer.send(record);
        }
        Span span = propagator.extract(record.headers(), READ)
                .kind(Span.Kind.PRODUCER)
                .name("send " + record.topic())
                .tag("messaging.system", "kafka")
                .tag("messaging.operation.name", "send")
                .tag("messaging.operation.type", "send")
                .tag("messaging.destination.name", record.topic())
                .start();
        String eventId = READ.get(record.headers(), Topics.HEADER_EVENT_ID);
        if (eventId != null) {
            span.tag("messaging.message.id", eventId);
        }
        if (record.key() != null) {
            span.tag("messaging.kafka.message.key", record.key());
        }
        propagator.inject(span.context(), record.headers(), WRITE);
        try (Tracer.SpanInScope ignored = tracer.withSpan(span)) {
            return producer.send(record, (metadata, failure) -> {
                if (failure != null) {
                    span.error(failure);
                } else {
                    span.tag("messaging.destination.partition.id", String.valueOf(metadata.partition()));
                }
                span.end();
            });
        } catch (RuntimeException e) {
            span.error(e);
            span.end();
            throw e;
        }
    }
}
