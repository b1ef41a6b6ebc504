package dev.payments.support.settings;

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Actuator (probes, Prometheus) on a port of its own in every service, so the API port serves the API and nothing
 * else: what a load balancer or an ingress exposes can never reach health details, metrics or an endpoint added
 * later. A service names its port next to {@code server.port}; {@link SettingsCheck} stops the start-up when it does
 * not, or when both are the same.
 */
final class ManagementPort {

    static final String PORT = "management.server.port";

    private ManagementPort() {
    }

    /**
     * Empty when actuator has a port of its own, or is off ({@code -1}: then nothing of it is served anywhere);
     * otherwise the one problem, naming the property.
     */
    static List<String> problems(Environment environment) {
        if (ManagementPortType.get(environment) != ManagementPortType.SAME) {
            return List.of();
        }
        String port = environment.getProperty(PORT);
        String apiPort = environment.getProperty("server.port", "8080");
        return List.of(port == null
                ? PORT + " is not set: actuator would be served on the API port " + apiPort
                : PORT + "=" + port + " is the API port: actuator would be served beside the API");
    }
}
