package dev.payments.outbox.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MessagingDefaultsTest {

    @Test
    void securityFiltersAreNotObservedUnlessAServiceAsksForIt() {
        StandardEnvironment plain = new StandardEnvironment();
        new MessagingDefaults().postProcessEnvironment(plain, new SpringApplication());

        StandardEnvironment asking = new StandardEnvironment();
        asking.getPropertySources().addFirst(new MapPropertySource("service",
                Map.of("management.observations.enable.spring.security", "true")));
        new MessagingDefaults().postProcessEnvironment(asking, new SpringApplication());

        assertThat(plain.getProperty("management.observations.enable.spring.security", Boolean.class)).isFalse();
        assertThat(plain.getProperty("management.tracing.sampling.probability")).isEqualTo("1.0");
        assertThat(asking.getProperty("management.observations.enable.spring.security", Boolean.class)).isTrue();
    }

    /** Fuller polls for the inbox's one transaction a poll (docs/decisions/consumer-errors.md), a service may differ. */
    @Test
    void consumersFetchInBatchesOfBoundedSize() {
        StandardEnvironment plain = new StandardEnvironment();
        new MessagingDefaults().postProcessEnvironment(plain, new SpringApplication());

        assertThat(plain.getProperty("spring.kafka.consumer.max-poll-records")).isEqualTo("100");
        assertThat(plain.getProperty("spring.kafka.consumer.fetch-min-size")).isEqualTo("16KB");
        assertThat(plain.getProperty("spring.kafka.consumer.fetch-max-wait")).isEqualTo("500ms");
    }
}
