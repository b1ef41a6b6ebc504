package dev.payments.outbox.config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.Map;

/**
 * Kafka client defaults every service shares, added with the lowest precedence so a service's own configuration
 * still wins. Consumers start from the earliest offset (a new consumer group must see every event), commit only
 * after processing, and give up a dead member's partitions in 10 s rather than Kafka's 45 s.
 */
public class MessagingDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        environment.getPropertySources().addLast(new MapPropertySource("messagingDefaults", Map.of(
                "spring.kafka.consumer.group-id", "${spring.application.name}",
                "spring.kafka.consumer.auto-offset-reset", "earliest",
                "spring.kafka.consumer.enable-auto-commit", "false",
                "spring.kafka.consumer.properties.session.timeout.ms", "10000",
                "spring.kafka.consumer.properties.heartbeat.interval.ms", "3000",
                "spring.kafka.producer.acks", "all",
                "spring.kafka.producer.properties.enable.idempotence", "true")));
    }
}
