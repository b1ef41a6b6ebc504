package dev.payments.order.config;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
class OrderServiceConfiguration {

    /** One clock for the use cases and the outbox, so tests can pin time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
