package dev.payments.localstack;

import dev.payments.localstack.infra.FreePorts;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ports of one stack, picked (0) or taken from the options, and checked free before anything starts: a port
 * another process holds would otherwise surface as a child that never becomes healthy.
 *
 * @param managementByComponent each Spring Boot app's actuator port, apart from its API port
 * @param pgSimulatorAdmin the PG simulator's admin API, a port of its own so a refused gateway port leaves it reachable
 */
record StackPorts(Map<Component, Integer> byComponent, Map<Component, Integer> managementByComponent,
                  int pgSimulatorAdmin) {

    StackPorts {
        byComponent = Map.copyOf(byComponent);
        managementByComponent = Map.copyOf(managementByComponent);
    }

    static StackPorts resolve(LocalStackOptions options) {
        FreePorts.Distinct free = new FreePorts.Distinct();
        Map<Component, Integer> ports = new EnumMap<>(Component.class);
        for (Component component : Component.values()) {
            ports.put(component, free.orPick(options.port(component)));
        }
        Map<Component, Integer> management = new EnumMap<>(Component.class);
        for (Component app : options.children()) {
            if (app.hasManagementPort()) {
                management.put(app, free.orPick(options.managementPort(app)));
            }
        }
        StackPorts resolved = new StackPorts(ports, management, free.orPick(options.pgSimulatorAdminPort()));
        resolved.requireFree(options);
        return resolved;
    }

    int of(Component component) {
        return byComponent.get(component);
    }

    /** Where a Spring Boot app of this stack serves actuator. */
    int management(Component app) {
        Integer port = managementByComponent.get(app);
        if (port == null) {
            throw new IllegalArgumentException(app + " has no management port in this stack");
        }
        return port;
    }

    private void requireFree(LocalStackOptions options) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put(Component.POSTGRES.id(), of(Component.POSTGRES));
        wanted.put(Component.KAFKA.id(), of(Component.KAFKA));
        options.children().forEach(child -> wanted.put(child.id(), of(child)));
        managementByComponent.forEach((app, port) -> wanted.put(app.id() + " management", port));
        if (options.children().contains(Component.PG_SIMULATOR)) {
            wanted.put("pg-simulator admin", pgSimulatorAdmin);
        }
        if (options.controlPort() > 0) {
            wanted.put("control endpoint", options.controlPort());
        }
        List<String> taken = wanted.entrySet().stream()
                .filter(entry -> !FreePorts.isFree(entry.getValue()))
                .map(entry -> "  " + entry.getKey() + ": port " + entry.getValue())
                .toList();
        if (!taken.isEmpty()) {
            throw new IllegalStateException("Ports already in use (another local stack, or a system service?):\n"
                    + String.join("\n", taken) + "\nFree them or choose others (see --help).");
        }
    }
}
