package dev.payments.outbox.relay;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

import java.util.concurrent.Future;

/**
 * How both relays hand a record to Kafka: {@link #NONE} sends it as it is; with tracing on the classpath
 * ({@link TracedPublishing}) the send is a PRODUCER span, child of the trace stored in the outbox row, whose context
 * the record carries on, so request, publish and every consumer are one trace.
 */
@FunctionalInterface
public interface PublishTracing {

    PublishTracing NONE = Producer::send;

    Future<RecordMetadata> send(Producer<String, String> producer, ProducerRecord<String, String> record);
}
