package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.in.web.OperatorToken;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

import java.time.Clock;

/**
 * What every capability shares: the clock, the operator token of the HTTP API, Spring's scheduling (the settler's and
 * the ledger audit's jobs; {@code spring.task.scheduling} gives each its own thread). Each capability wires its own use
 * cases (plain classes, no Spring inside the application layer) and adapters in its own configuration beside this one.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReconciliationProperties.class)
@EnableScheduling
public class ReconciliationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    OperatorToken operatorToken(ReconciliationProperties properties) {
        return new OperatorToken(properties.operatorToken());
    }
}
