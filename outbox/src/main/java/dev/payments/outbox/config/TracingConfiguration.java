package dev.payments.outbox.config;

import dev.payments.outbox.TraceContext;
import dev.payments.outbox.relay.PublishTracing;
import dev.payments.outbox.relay.TracedPublishing;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Micrometer Tracing on the classpath, each outbox row stores the W3C {@code traceparent} of the span that
 * wrote it; the relay puts it in the Kafka header of the same name, and Spring Kafka's listener observation
 * continues the trace in every consumer: one trace from the HTTP request to each consumer's work. The relay's own
 * publish is a PRODUCER span in that trace, between the row's writer and the consumers ({@link TracedPublishing}).
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

    /** The relays' publish as a PRODUCER span under the stored trace, when a tracer and a propagator exist. */
    @Bean
    @ConditionalOnMissingBean
    PublishTracing publishTracing(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        Tracer current = tracer.getIfAvailable();
        Propagator w3c = propagator.getIfAvailable();
        return current == null || w3c == null ? PublishTracing.NONE : new TracedPublishing(current, w3c);
    }
}
