package dev.payments.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to run the local stack. Ports of 0 are picked at start; {@link #controlPort()} below 0 turns the
 * control endpoint off.
 *
 * @param repoDir the repository root, or {@code null} to find it by walking up from the working directory
 * @param dataDir where PostgreSQL, Kafka and the logs live, or {@code null} for {@code <repo>/.local-stack}
 * @param clean delete {@code dataDir} before starting
 * @param ports per component; missing ones take {@link Component#defaultPort()}
 * @param managementPorts per Spring Boot app, its actuator port; missing ones take
 *     {@link Component#defaultManagementPort()}
 * @param pgSimulatorAdminPort the PG simulator's admin API (fault injection, ledger, health)
 * @param children the child processes to run (default: all)
 * @param jvmOptions for every child JVM
 * @param extraArgs further application arguments per child, after the generated ones (so they win in Spring Boot)
 * @param allowMissingJars start the children whose jars exist and report the others, instead of failing
 * @param healthTimeout how long a child may take to report UP
 * @param stopTimeout how long a child may take to exit after SIGTERM before it is killed
 * @param postgresSettings further {@code postgresql.conf} settings (e.g. {@code shared_preload_libraries} for a drill
 *     that counts statements), over the server's defaults
 * @param replicas JVMs per service (default 1); a service with more runs behind a load balancer on its port
 * @param classDataSharing whether each Spring Boot child starts from a class data archive trained once per build of
 *                         its jar ({@link ClassDataArchive}); on by default, as in the images
 */
public record LocalStackOptions(Path repoDir, Path dataDir, boolean clean, Map<Component, Integer> ports,
                                Map<Component, Integer> managementPorts, int pgSimulatorAdminPort, int controlPort,
                                Set<Component> children, List<String> jvmOptions,
                                Map<Component, List<String>> extraArgs, boolean allowMissingJars,
                                Duration healthTimeout, Duration stopTimeout, Map<String, String> postgresSettings,
                                Map<Component, Integer> replicas, boolean classDataSharing) {

    public static final int DEFAULT_CONTROL_PORT = 8099;
    public static final int DEFAULT_PG_SIMULATOR_ADMIN_PORT = 8091;

    /**
     * Small heaps, serial GC and C1 only keep the whole stack under ~3 GB resident on a laptop. The C heap's free pages
     * go back to the OS every 10 s, as in the images ({@link #PRODUCTION_JVM_OPTIONS}).
     */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of(
            "-Xmx256m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:ReservedCodeCacheSize=64m", "-XX:MaxMetaspaceSize=192m", "-XX:TrimNativeHeapInterval=10000");

    /**
     * What a pod of deploy/ runs: deploy/docker/Dockerfile's {@code JAVA_TOOL_OPTIONS} under the Deployments' 768Mi
     * memory limit, which {@code MaxRAM} stands in for (heap 70 % of it, ~540 MB), both JIT tiers (C2), and the
     * serial collector, which the JVM picks by itself in such a pod (G1 only from 1792 MB of memory up) but not on a
     * machine with more memory, hence said here, and the image's periodic trim of the C heap: glibc keeps the memory
     * the JVM's threads free, which grew reconciliation-service's RSS ~90 MB/h with its Java heap flat (docs/results.md,
     * "soak"). The drills measure performance with these (docs/measurements.md).
     */
    public static final List<String> PRODUCTION_JVM_OPTIONS = List.of(
            "-XX:MaxRAM=768m", "-XX:MaxRAMPercentage=70", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError",
            "-XX:TrimNativeHeapInterval=10000");

    public LocalStackOptions {
        ports = Map.copyOf(ports);
        managementPorts = Map.copyOf(managementPorts);
        EnumSet<Component> ordered = EnumSet.noneOf(Component.class);
        ordered.addAll(children);
        children = Collections.unmodifiableSet(ordered);
        jvmOptions = List.copyOf(jvmOptions);
        Map<Component, List<String>> copied = new LinkedHashMap<>();
        extraArgs.forEach((component, args) -> copied.put(component, List.copyOf(args)));
        extraArgs = Map.copyOf(copied);
        postgresSettings = Collections.unmodifiableMap(new LinkedHashMap<>(postgresSettings));
        for (Component child : children) {
            if (!child.isChildProcess()) {
                throw new IllegalArgumentException(child + " runs inside the launcher, not as a child process");
            }
        }
        replicas = Map.copyOf(replicas);
        replicas.forEach((component, count) -> {
            if (count < 1) {
                throw new IllegalArgumentException(component + ": at least one replica, not " + count);
            }
            // The simulator keeps its ledger in memory and the issuer its signing key on disk: one of each.
            if (count > 1 && !component.isSpringBootService()) {
                throw new IllegalArgumentException(component + " runs as one process; replicas are for the services");
            }
        });
    }

    /** How many JVMs of {@code component} run (1 unless asked otherwise). */
    public int replicas(Component component) {
        return replicas.getOrDefault(component, 1);
    }

    /** Whether any service runs as several replicas, and so behind the load balancer. */
    public boolean replicated() {
        return children.stream().anyMatch(child -> replicas(child) > 1);
    }

    public static LocalStackOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public int port(Component component) {
        return ports.getOrDefault(component, component.defaultPort());
    }

    public int managementPort(Component component) {
        return managementPorts.getOrDefault(component, component.defaultManagementPort());
    }

    public List<String> extraArgs(Component component) {
        return extraArgs.getOrDefault(component, List.of());
    }

    public static final class Builder {

        private Path repoDir;
        private Path dataDir;
        private boolean clean;
        private final Map<Component, Integer> ports = new EnumMap<>(Component.class);
        private final Map<Component, Integer> managementPorts = new EnumMap<>(Component.class);
        private int pgSimulatorAdminPort = DEFAULT_PG_SIMULATOR_ADMIN_PORT;
        private int controlPort = DEFAULT_CONTROL_PORT;
        private EnumSet<Component> children = EnumSet.copyOf(Component.childProcesses());
        private List<String> jvmOptions = new ArrayList<>(DEFAULT_JVM_OPTIONS);
        private final Map<Component, List<String>> extraArgs = new EnumMap<>(Component.class);
        private boolean allowMissingJars;
        private Duration healthTimeout = Duration.ofSeconds(180);
        private Duration stopTimeout = Duration.ofSeconds(30);
        private final Map<String, String> postgresSettings = new LinkedHashMap<>();
        private final Map<Component, Integer> replicas = new EnumMap<>(Component.class);
        private boolean classDataSharing = true;

        private Builder() {
        }

        public Builder repoDir(Path directory) {
            this.repoDir = directory;
            return this;
        }

        public Builder dataDir(Path directory) {
            this.dataDir = directory;
            return this;
        }

        public Builder clean(boolean wipe) {
            this.clean = wipe;
            return this;
        }

        public Builder port(Component component, int port) {
            ports.put(component, port);
            return this;
        }

        public Builder managementPort(Component component, int port) {
            managementPorts.put(component, port);
            return this;
        }

        /** Every port, the control endpoint's included, picked at start: for tests that run beside other stacks. */
        public Builder randomPorts() {
            Arrays.stream(Component.values()).forEach(component -> ports.put(component, 0));
            Arrays.stream(Component.values()).filter(Component::hasManagementPort)
                    .forEach(component -> managementPorts.put(component, 0));
            pgSimulatorAdminPort = 0;
            controlPort = 0;
            return this;
        }

        public Builder pgSimulatorAdminPort(int port) {
            this.pgSimulatorAdminPort = port;
            return this;
        }

        public Builder controlPort(int port) {
            this.controlPort = port;
            return this;
        }

        public Builder children(Set<Component> selected) {
            this.children = EnumSet.noneOf(Component.class);
            this.children.addAll(selected);
            return this;
        }

        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = new ArrayList<>(options);
            return this;
        }

        public Builder extraArg(Component component, String argument) {
            extraArgs.computeIfAbsent(component, ignored -> new ArrayList<>()).add(argument);
            return this;
        }

        public Builder allowMissingJars(boolean allow) {
            this.allowMissingJars = allow;
            return this;
        }

        public Builder healthTimeout(Duration timeout) {
            this.healthTimeout = timeout;
            return this;
        }

        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = timeout;
            return this;
        }

        public Builder postgresSetting(String name, String value) {
            postgresSettings.put(name, value);
            return this;
        }

        /** {@code count} JVMs of a service, each on a port of its own, behind a load balancer on the service's port. */
        public Builder replicas(Component component, int count) {
            replicas.put(component, count);
            return this;
        }

        /** Whether the Spring Boot children start from a class data archive (on unless turned off). */
        public Builder classDataSharing(boolean share) {
            this.classDataSharing = share;
            return this;
        }

        public LocalStackOptions build() {
            return new LocalStackOptions(repoDir, dataDir, clean, ports, managementPorts, pgSimulatorAdminPort, controlPort,
                    children, jvmOptions, extraArgs, allowMissingJars, healthTimeout, stopTimeout, postgresSettings,
                    replicas, classDataSharing);
        }
    }
}
