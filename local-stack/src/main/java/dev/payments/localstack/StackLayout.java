package dev.payments.localstack;

import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.TempDirectories;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each part of a stack lives before anything starts: the repository its jars come from, its data directory (logs,
 * pid files, working directories), its ports, and each child's command line.
 */
final class StackLayout {

    final LocalStackOptions options;
    final Path repoDir;
    final Path dataDir;
    final StackPorts ports;

    private StackLayout(LocalStackOptions options, Path repoDir, Path dataDir, StackPorts ports) {
        this.options = options;
        this.repoDir = repoDir;
        this.dataDir = dataDir;
        this.ports = ports;
    }

    /**
     * Resolves directories and ports and checks that the ports are free. Stale processes of a previous launcher that
     * died without its shutdown hook are stopped here.
     */
    static StackLayout resolve(LocalStackOptions options) {
        Path repoDir = options.repoDir() != null
                ? options.repoDir().toAbsolutePath().normalize()
                : RepositoryRoot.find(Path.of("").toAbsolutePath());
        Path dataDir = (options.dataDir() != null ? options.dataDir() : repoDir.resolve(".local-stack"))
                .toAbsolutePath().normalize();
        // Before a clean start wipes the directory: the pid files are how the leftovers are found.
        Leftovers.stop(dataDir.resolve("run"), dataDir.resolve("postgres"));
        if (options.clean()) {
            TempDirectories.deleteRecursively(dataDir);
        }
        return new StackLayout(options, repoDir, dataDir, StackPorts.resolve(options));
    }

    EmbeddedPostgresServer postgres() {
        EmbeddedPostgresServer.Options postgresOptions = EmbeddedPostgresServer.Options.defaults()
                .withPort(ports.of(Component.POSTGRES))
                .withDataDirectory(dataDir.resolve("postgres"))
                .withLogFile(logFile(Component.POSTGRES.id()))
                // The stack orders the shutdown itself: the children must go before their database.
                .withRegisterShutdownHook(false);
        for (Map.Entry<String, String> setting : options.postgresSettings().entrySet()) {
            postgresOptions = postgresOptions.withSetting(setting.getKey(), setting.getValue());
        }
        return new EmbeddedPostgresServer(postgresOptions);
    }

    EmbeddedKafkaBroker kafka() {
        return new EmbeddedKafkaBroker(EmbeddedKafkaBroker.Options.defaults()
                .withPort(ports.of(Component.KAFKA))
                .withLogDirectory(dataDir.resolve("kafka")));
    }

    /** PostgreSQL, Kafka, every replica of every chosen child, and a load balancer if any child has several. */
    StackMembers members(EmbeddedPostgresServer postgres, EmbeddedKafkaBroker kafka) {
        List<ChildProcess> processes = new ArrayList<>();
        List<LoadBalancer.Frontend> frontends = new ArrayList<>();
        for (Component child : options.children()) {
            int count = options.replicas(child);
            Map<String, Integer> replicaPorts = new LinkedHashMap<>();
            Map<String, Integer> checkPorts = new LinkedHashMap<>();
            for (int n = 1; n <= count; n++) {
                String name = StackPorts.replicaName(child, n, count);
                processes.add(new ChildProcess(childSpec(child, name, postgres, kafka), options.healthTimeout(),
                        options.stopTimeout(), options.classDataSharing()));
                replicaPorts.put(name, ports.ofReplica(child, name));
                if (child.hasManagementPort()) {
                    checkPorts.put(name, ports.managementOfReplica(child, name));
                }
            }
            if (count > 1) {
                frontends.add(new LoadBalancer.Frontend(child, ports.of(child), replicaPorts, checkPorts));
            }
        }
        StackMembers members = new StackMembers(List.of(new EmbeddedComponent(Component.POSTGRES, postgres),
                new EmbeddedComponent(Component.KAFKA, kafka)), processes, frontends.isEmpty() ? null
                : new LoadBalancer(frontends, dataDir.resolve("run"), logFile(LoadBalancer.NAME)));
        requireJars(members);
        return members;
    }

    private ChildSpec childSpec(Component component, String name, EmbeddedPostgresServer postgres,
                                EmbeddedKafkaBroker kafka) {
        int port = ports.ofReplica(component, name);
        HealthProbe probe = component == Component.PG_SIMULATOR
                ? HealthProbe.StatusUp.pgSimulatorAdmin(ChildArguments.httpUrl(ports.pgSimulatorAdmin()))
                : HealthProbe.StatusUp.actuator(ChildArguments.httpUrl(ports.managementOfReplica(component, name)));
        List<String> arguments = ChildArguments.of(component, name, port,
                component.hasManagementPort() ? ports.managementOfReplica(component, name) : 0, ports::of,
                ports.pgSimulatorAdmin(), postgres::jdbcUrl, kafka.bootstrapServers(), options.extraArgs(component));
        return new ChildSpec(component, name, Path.of(System.getProperty("java.home"), "bin", "java"),
                RepositoryRoot.runnableJar(repoDir, component.id()), options.jvmOptions(), arguments,
                ChildArguments.httpUrl(port), probe, logFile(name), dataDir.resolve("run").resolve(name + ".pid"),
                workingDirectory(name));
    }

    /** The log of one instance by name ({@code payment-service-2}), or of the load balancer. */
    Path logFile(String name) {
        return dataDir.resolve("logs").resolve(name + ".log");
    }

    Path workingDirectory(String name) {
        return dataDir.resolve("work").resolve(name);
    }

    private void requireJars(StackMembers members) {
        List<String> missing = members.children().stream()
                .filter(child -> child.state() == ComponentState.MISSING)
                .map(child -> "  " + child.name() + ": " + child.spec().jar())
                .toList();
        if (!missing.isEmpty() && !options.allowMissingJars()) {
            throw new IllegalStateException("Runnable jars are missing:\n" + String.join("\n", missing)
                    + "\nBuild them first: ./mvnw -DskipTests install (or start anyway with --allow-missing)");
        }
    }
}
