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
 * @param byReplica each replica of a replicated service, by name ({@code payment-service-2}); picked free. The
 *                  service's own port is then the load balancer's.
 */
record StackPorts(Map<Component, Integer> byComponent, Map<Component, Integer> managementByComponent,
                  int pgSimulatorAdmin, Map<String, Integer> byReplica, Map<String, Integer> managementByReplica) {

    StackPorts {
        byComponent = Map.copyOf(byComponent);
        managementByComponent = Map.copyOf(managementByComponent);
        byReplica = Map.copyOf(byReplica);
        managementByReplica = Map.copyOf(managementByReplica);
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
        Map<String, Integer> replicas = new LinkedHashMap<>();
        Map<String, Integer> replicaManagement = new LinkedHashMap<>();
        for (Component child : options.children()) {
            int count = options.replicas(child);
            if (count > 1) {
                for (int n = 1; n <= count; n++) {
                    String name = replicaName(child, n, count);
                    replicas.put(name, free.orPick(0));
                    // Actuator is per process (no balancer in front): the first replica keeps the service's
                    // management port, so a scrape or probe configured for it still finds one; the others get their own.
                    if (child.hasManagementPort()) {
                        replicaManagement.put(name, n == 1 ? management.get(child) : free.orPick(0));
                    }
                }
            }
        }
        StackPorts resolved = new StackPorts(ports, management, free.orPick(options.pgSimulatorAdminPort()), replicas,
                replicaManagement);
        resolved.requireFree(options);
        return resolved;
    }

    /** The component's id for a single instance, {@code <id>-<n>} for one of several. */
    static String replicaName(Component component, int n, int of) {
        return of == 1 ? component.id() : component.id() + "-" + n;
    }

    int of(Component component) {
        return byComponent.get(component);
    }

    /** Where a Spring Boot app of this stack serves actuator (its first replica's when it runs as several). */
    int management(Component app) {
        Integer port = managementByComponent.get(app);
        if (port == null) {
            throw new IllegalArgumentException(app + " has no management port in this stack");
        }
        return port;
    }

    /** Where one replica listens: its own port, or the component's when it is the only one. */
    int ofReplica(Component component, String name) {
        return byReplica.getOrDefault(name, of(component));
    }

    /** Where one replica serves actuator: its own management port, or the component's when it is the only one. */
    int managementOfReplica(Component app, String name) {
        Integer port = managementByReplica.get(name);
        return port != null ? port : management(app);
    }

    private void requireFree(LocalStackOptions options) {
        Map<String, Integer> wanted = new LinkedHashMap<>();
        wanted.put(Component.POSTGRES.id(), of(Component.POSTGRES));
        wanted.put(Component.KAFKA.id(), of(Component.KAFKA));
        options.children().forEach(child -> wanted.put(child.id() + (options.replicas(child) > 1 ? " (load balancer)" : ""),
                of(child)));
        managementByComponent.forEach((app, port) -> wanted.put(app.id() + " management", port));
        wanted.putAll(byReplica);
        managementByReplica.forEach((name, port) -> wanted.putIfAbsent(name + " management", port));
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
