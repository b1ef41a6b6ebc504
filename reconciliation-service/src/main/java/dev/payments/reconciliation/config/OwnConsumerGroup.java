package dev.payments.reconciliation.config;

import org.springframework.core.env.Environment;

/** This service's consumer group: it names the dead-letter topics and is the one group replay pauses itself. */
final class OwnConsumerGroup {

    private OwnConsumerGroup() {
    }

    static String of(Environment environment) {
        return environment.getProperty("spring.kafka.consumer.group-id",
                environment.getRequiredProperty("spring.application.name"));
    }
}
