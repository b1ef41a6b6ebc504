package dev.payments.outbox.config;

import dev.payments.outbox.TraceContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer Tracing on the classpath, each outbox row stores the W3C {@code traceparent} of the span that
 * wrote it; the relay puts it in the Kafka header of the same name, and Spring Kafka's listener observation
 * continues the trace in every consumer: one trace from the HTTP request to each consumer's work.
 */
@AutoConfiguration(before = OutboxAutoConfiguration.class)
@ConditionalOnClass(Tracer.class)
public class TracingConfiguration {

    @Bean
    @ConditionalOnMissingBean
    TraceContext tracerTraceContext(ObjectProvider<Tracer> tracer) {
        return () -> {
            Tracer current = tracer.getIfAvailable();
            Span span = current == null ? null : current.currentSpan();
            if (span == null) {
                return null;
            }
            var context = span.context();
            return "00-" + context.traceId() + "-" + context.spanId() + "-"
                    + (Boolean.TRUE.equals(context.sampled()) ? "01" : "00");
        };
    }
}
