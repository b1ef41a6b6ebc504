package dev.payments.outbox.tracing;

import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.Topics;
import dev.payments.localstack.infra.SharedTestInfrastructure;
import dev.payments.outbox.OutboxWriter;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One trace from a request through the outbox row, the Debezium relay and the Kafka header to a consumer: the
 * consumer's span carries the request's trace id (Micrometer Tracing with the OpenTelemetry bridge, W3C context).
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

        Observation request = Observation.start("test.request", observations);
        try (Observation.Scope ignored = request.openScope()) {
            requestTrace[0] = tracer.currentSpan().context().traceId();
            transaction.executeWithoutResult(status -> writer.append(order));
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
    }

    @SpringBootApplication
    static class TracedApp {

        final Map<String, String> traceIdSeenByConsumer = new ConcurrentHashMap<>();
        @Autowired
        org.springframework.beans.factory.ObjectProvider<Tracer> tracer;
        final Map<String, String> traceparentHeader = new ConcurrentHashMap<>();

        @Bean
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }

        @Bean
        TransactionTemplate transactionTemplate(org.springframework.transaction.PlatformTransactionManager transactions) {
            return new TransactionTemplate(transactions);
        }

        @KafkaListener(topics = Topics.ORDER_EVENTS, groupId = "tracing-test-consumer")
        void on(ConsumerRecord<String, String> record) {
            var span = tracer.getObject().currentSpan();
            if (span != null && record.key() != null) {
                traceIdSeenByConsumer.put(record.key(), span.context().traceId());
            }
            var header = record.headers().lastHeader(Topics.HEADER_TRACEPARENT);
            if (header != null && record.key() != null) {
                traceparentHeader.put(record.key(), new String(header.value(), StandardCharsets.UTF_8));
            }
        }
    }
}
