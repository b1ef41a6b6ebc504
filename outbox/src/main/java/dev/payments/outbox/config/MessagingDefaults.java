package dev.payments.outbox.config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * Kafka client, trace and observation defaults every service shares, added with the lowest precedence so a service's own
 * configuration still wins. Consumers start from the earliest offset (a new consumer group must see every event), commit only
 * after processing, and give up a dead member's partitions in 10 s rather than Kafka's 45 s. Every client logs in
 * with SASL/SCRAM.
 */
public class MessagingDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource("messagingDefaults", Map.ofEntries(
                Map.entry("spring.kafka.consumer.group-id", "${spring.application.name}"),
                // Every service logs in with its own SCRAM principal (docs/security.md); the JAAS line with its name
                // and password is a required setting (service-support), never defaulted. SASL_SSL where TLS is given.
                Map.entry("spring.kafka.security.protocol", "SASL_PLAINTEXT"),
                Map.entry("spring.kafka.properties.sasl.mechanism", "SCRAM-SHA-512"),
                Map.entry("spring.kafka.consumer.auto-offset-reset", "earliest"),
                Map.entry("spring.kafka.consumer.enable-auto-commit", "false"),
                // The inbox applies a poll in one transaction (docs/decisions/consumer-errors.md): 100 records bound
                // how long it holds its rows' locks, and cut a backlog's commits a hundredfold all the same.
                Map.entry("spring.kafka.consumer.max-poll-records", "100"),
                // The broker answers a fetch when 16 KB (20-30 events) are there or 500 ms (Kafka's default) have
                // passed, not at the first byte: fuller polls for the inbox's one transaction under load, and two
                // fetches a second per idle consumer, each of which costs the broker as much as a consumer; for at
                // most 500 ms between a commit and its consumers at low traffic (docs/measurements.md, "An idle stack").
                Map.entry("spring.kafka.consumer.fetch-min-size", "16KB"),
                Map.entry("spring.kafka.consumer.fetch-max-wait", "500ms"),
                Map.entry("spring.kafka.consumer.properties.session.timeout.ms", "10000"),
                Map.entry("spring.kafka.consumer.properties.heartbeat.interval.ms", "3000"),
                Map.entry("spring.kafka.producer.acks", "all"),
                Map.entry("spring.kafka.producer.properties.enable.idempotence", "true"),
                // Consumers continue the trace the outbox stored in the traceparent header.
                Map.entry("spring.kafka.listener.observation-enabled", "true"),
                Map.entry("spring.kafka.template.observation-enabled", "true"),
                // Every approval is worth a trace at this volume; exporting is off until an OTLP endpoint is set.
                Map.entry("management.tracing.sampling.probability", "1.0"),
                // Spring Security observes each of its ~15 filters, the authentication and the authorization of every
                // request: spans nobody reads, and a large share of a request thread's CPU (docs/measurements.md).
                // The request's own span, its TX-1/PG/TX-2 children and the Kafka hops stay.
                Map.entry("management.observations.enable.spring.security", "false"))));
    }
}
