package dev.payments.outbox.config;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Health groups for a service that runs the outbox relay, with the lowest precedence so a service's own groups win:
 * <ul>
 *   <li>{@code liveness} adds {@code outboxRelay}: a relay thread that died never publishes again, so the pod is
 *       restarted rather than left looking healthy while it publishes nothing;</li>
 *   <li>{@code publishing} ({@code /actuator/health/publishing}) holds {@code outboxRelay} and
 *       {@code outboxPublishing}: DOWN while the polling relay stands in for a lost slot or a failing engine. It is not
 *       the readiness group on purpose: requests still commit their events to the outbox, and taking pods out of
 *       traffic would turn a relay problem into an outage (docs/decisions/outbox-relay.md).</li>
 * </ul>
 * Services without the relay ({@code outbox.enabled=false} or {@code outbox.relay.enabled=false}) get neither, and
 * the liveness group is only extended where the service enabled the probes: a group naming a missing contributor
 * fails the start-up.
 */
public class RelayProbeDefaults implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        boolean relay = environment.getProperty("outbox.enabled", Boolean.class, true)
                && environment.getProperty("outbox.relay.enabled", Boolean.class, true);
        if (!relay) {
            return;
        }
        Map<String, Object> groups = new LinkedHashMap<>();
        // Only where the service turned the probes on: livenessState exists only then, and a group naming a missing
        // contributor fails the start-up.
        if (environment.getProperty("management.endpoint.health.probes.enabled", Boolean.class, false)) {
            groups.put("management.endpoint.health.group.liveness.include", "livenessState,outboxRelay");
            // which part failed liveness, for whoever reads a restarted pod's events
            groups.put("management.endpoint.health.group.liveness.show-components", "always");
        }
        groups.put("management.endpoint.health.group.publishing.include", "outboxRelay,outboxPublishing");
        groups.put("management.endpoint.health.group.publishing.show-details", "always");
        environment.getPropertySources().addLast(new MapPropertySource("outboxRelayProbeDefaults", groups));
    }
}
