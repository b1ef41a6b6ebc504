package dev.payments.outbox.tracing;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.inbox.Inbox;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace from a request through the outbox row, the Debezium relay and the Kafka header to a consumer (a batch
 * listener applying through the {@link Inbox}, as every service's): the consumer's span carries the request's trace id (Micrometer Tracing with the OpenTelemetry bridge, W3C context), and
 * is the child of the relay's PRODUCER span, itself the child of the span that wrote the row.
 */
@DirtiesContext
@AutoConfigureObservability
@SpringBootTest(classes = TracePropagationIntegrationTest.TracedApp.class, properties = {
        "spring.application.name=tracing-test",
        "spring.flyway.fail-on-missing-locations=false"})
class TracePropagationIntegrationTest {

    @Autowired
    OutboxWriter writer;
    @Autowired
    TransactionTemplate transaction;
    @Autowired
    ObservationRegistry observations;
    @Autowired
    Tracer tracer;
    @Autowired
    InMemorySpanExporter spans;
    @Autowired
    TracedApp app;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        SharedTestInfrastructure.springProperties("outbox_tracing").forEach((key, value) -> registry.add(key, () -> value));
    }

    @Test
    void theConsumersSpanHasTheRequestsTraceId() {
        OrderCreated order = new OrderCreated(UUID.randomUUID(), "member-1", 15_000, "KRW", "Annual plan");
        String[] requestTrace = new String[1];
        String[] requestSpan = new String[1];
        UUID[] eventId = new UUID[1];

        Observation request = Observation.start("test.request", observations);
        try (Observation.Scope ignored = request.openScope()) {
            requestTrace[0] = tracer.currentSpan().context().traceId();
            requestSpan[0] = tracer.currentSpan().context().spanId();
            transaction.executeWithoutResult(status -> eventId[0] = writer.append(order).eventId());
        } finally {
            request.stop();
        }

        String key = order.orderId().toString();
        await().atMost(Duration.ofSeconds(30)).until(() -> app.traceIdSeenByConsumer.containsKey(key));
        assertThat(app.traceparentHeader.get(key)).startsWith("00-" + requestTrace[0] + "-");
        assertThat(app.traceIdSeenByConsumer.get(key)).isEqualTo(requestTrace[0]);
        await().atMost(Duration.ofSeconds(10)).until(() -> spans.getFinishedSpanItems().stream()
                .anyMatch(span -> span.getTraceId().equals(requestTrace[0]) && span.getKind().name().equals("CONSUMER")));
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getTraceId().equals(requestTrace[0]))
                .extracting(SpanData::getName).contains("test.request");

        // request -> the relay's publish (PRODUCER, OpenTelemetry messaging conventions) -> the consumer
        SpanData publish = spans.getFinishedSpanItems().stream()
                .filter(span -> span.getTraceId().equals(requestTrace[0]) && span.getKind() == SpanKind.PRODUCER)
                .findFirst().orElseThrow(() -> new AssertionError("no PRODUCER span in the request's trace"));
        assertThat(publish.getName()).isEqualTo("send " + Topics.ORDER_EVENTS);
        assertThat(publish.getParentSpanId()).isEqualTo(requestSpan[0]);
        assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("kafka");
        assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))
                .isEqualTo(Topics.ORDER_EVENTS);
        assertThat(publish.getAttributes().get(AttributeKey.stringKey("messaging.message.id")))
                .isEqualTo(eventId[0].toString());
        assertThat(app.traceparentHeader.get(key)).isEqualTo("00-" + requestTrace[0] + "-" + publish.getSpanId() + "-01");
        assertThat(spans.getFinishedSpanItems()).filteredOn(span -> span.getKind() == SpanKind.CONSUMER
                        && span.getTraceId().equals(requestTrace[0]))
                .extracting(SpanData::getParentSpanId).contains(publish.getSpanId());
    }

    @SpringBootApplication
    static class TracedApp {

        final Map<String, String> traceIdSeenByConsumer = new ConcurrentHashMap<>();
        @Autowired
        ObjectProvider<Tracer> tracer;
        @Autowired
        ObjectProvider<Inbox> inbox;
        final Map<String, String> traceparentHeader = new ConcurrentHashMap<>();

        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean
        TransactionTemplate transactionTemplate(org.springframework.transaction.PlatformTransactionManager transactions) {
            return new TransactionTemplate(transactions);
        }

        /** A consumer as every service has one: a batch listener applying through the inbox. */
        @KafkaListener(topics = Topics.ORDER_EVENTS, groupId = "tracing-test-consumer", batch = "true")
        void on(List<ConsumerRecord<String, String>> records) {
            for (ConsumerRecord<String, String> record : records) {
                var header = record.headers().lastHeader(Topics.HEADER_TRACEPARENT);
                if (header != null && record.key() != null) {
                    traceparentHeader.put(record.key(), new String(header.value(), StandardCharsets.UTF_8));
                }
            }
            inbox.getObject().consume(records, envelope -> {
                var span = tracer.getObject().currentSpan();
                if (span != null) {
                    traceIdSeenByConsumer.put(envelope.event().orderId().toString(), span.context().traceId());
                }
            });
        }
    }
}
