package dev.payments.outbox.config;

import dev.payments.outbox.relay.OutboxRelay;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * Two {@code /actuator/health} components, for two different questions (docs/decisions/outbox-relay.md):
 * <ul>
 *   <li>{@code outboxRelay}: is the relay's thread alive? DOWN means this replica would never publish again; it is in
 *       the liveness group, so the orchestrator restarts the pod. A standby replica is UP.</li>
 *   <li>{@code outboxPublishing}: does publishing run as designed? DOWN while the polling relay stands in for a lost
 *       slot or a failing engine, in the {@code publishing} group only: requests still commit their events to the
 *       outbox, so taking the pod out of traffic would turn a relay problem into an outage.</li>
 * </ul>
 */
@AutoConfiguration(after = OutboxAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OutboxRelay.class)
public class OutboxHealthConfiguration {

    @Bean
    HealthIndicator outboxRelayHealthIndicator(OutboxRelay relay) {
        return () -> {
            OutboxRelay.Status status = relay.status();
            return (status.alive() ? Health.up() : Health.down())
                    .withDetail("state", status.state().name())
                    .withDetail("slot", status.slotName())
                    .build();
        };
    }

    @Bean
    HealthIndicator outboxPublishingHealthIndicator(OutboxRelay relay) {
        return () -> {
            OutboxRelay.Status status = relay.status();
            Health.Builder health = status.alive() && status.degraded() == null ? Health.up() : Health.down();
            health.withDetail("state", status.state().name());
            if (status.publisher() != null) {
                health.withDetail("publisher", status.publisher());
            }
            if (status.slot() != null) {
                health.withDetail("slotCondition", status.slot());
            }
            if (status.degraded() != null) {
                health.withDetail("degraded", status.degraded());
            }
            if (status.unpublishedRows() != null) {
                health.withDetail("unpublishedRows", status.unpublishedRows())
                        .withDetail("oldestUnpublishedSeconds", status.oldestUnpublishedSeconds());
            }
            return health.build();
        };
    }
}
