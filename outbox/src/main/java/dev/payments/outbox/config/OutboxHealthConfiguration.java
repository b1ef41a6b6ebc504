package dev.payments.outbox.config;

import dev.payments.outbox.relay.OutboxRelay;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * {@code /actuator/health} component {@code outboxRelay}: DOWN when the relay's thread died, so an orchestrator
 * restarts a service that would otherwise look healthy and publish nothing. A standby replica is UP: another one
 * holds the lease.
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OutboxRelay.class)
public class OutboxHealthConfiguration {

    @Bean
    HealthIndicator outboxRelayHealthIndicator(OutboxRelay relay) {
        return () -> (relay.isAlive() ? Health.up() : Health.down())
                .withDetail("state", relay.state().name())
                .withDetail("slot", relay.slotName())
                .build();
    }
}
