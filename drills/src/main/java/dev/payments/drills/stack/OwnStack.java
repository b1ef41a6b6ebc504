package dev.payments.drills.stack;

import dev.payments.localstack.identity.Tokens;

import dev.payments.localstack.Component;
import dev.payments.localstack.LocalStack;
import dev.payments.localstack.LocalStackOptions;
import dev.payments.localstack.RepositoryRoot;
import dev.payments.localstack.RunningStack;
import dev.payments.localstack.StackAction;
import dev.payments.localstack.infra.TempDirectories;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A whole stack started for one drill on random ports with the scenario's service settings (pool size, bulkhead...),
 * from clean databases, so that two drills never see each other's orders and the settings are the ones reported.
 */
public final class OwnStack implements Target {

    /**
     * What a drill runs: every child but the operator console, which serves people, not the drills' load, and would
     * only add an idle JVM to the CPU and memory the drills measure.
     */
    private static final Set<Component> DRILLED = EnumSet.copyOf(Component.childProcesses().stream()
            .filter(component -> component != Component.OPERATOR_CONSOLE).toList());

    private final RunningStack stack;
    private final Map<Component, List<String>> settings;

    private final Path jars;

    private final List<String> jvmOptions;

    private OwnStack(RunningStack stack, Map<Component, List<String>> settings, Path jars, List<String> jvmOptions) {
        this.stack = stack;
        this.settings = settings;
        this.jars = jars;
        this.jvmOptions = jvmOptions;
    }

    private static void deleteTree(Path dir) {
        try {
            TempDirectories.deleteRecursively(dir);
        } catch (UncheckedIOException ignored) {
            // a temporary directory; the OS cleans it eventually
        }
    }

    /**
     * @param settings         extra Spring properties per component, e.g. {@code --spring.datasource.hikari.maximum-pool-size=10}
     * @param replicas         JVMs per service (default 1); several run behind the stack's HAProxy
     * @param jvmOptions       of every child JVM
     * @param postgresSettings {@code postgresql.conf} settings over the stack's defaults
     * @param healthTimeout    how long a service may take to report UP (minutes on a loaded machine)
     * @param classDataSharing whether the services start from class data archives, as the local stack's do
     */
    public static OwnStack start(Map<Component, List<String>> settings, Map<Component, Integer> replicas, Path dataDir,
                                 List<String> jvmOptions, Map<String, String> postgresSettings, Duration healthTimeout,
                                 boolean classDataSharing) {
        try {
            Path dir = dataDir != null ? dataDir : Files.createTempDirectory("drill-stack");
            // Outside the data directory: the stack wipes that on a clean start.
            Path jars = snapshotJars(Files.createTempDirectory("drill-jars"));
            LocalStackOptions.Builder options = LocalStackOptions.builder()
                    .repoDir(jars)
                    .randomPorts()
                    .dataDir(dir)
                    .clean(true)
                    .controlPort(-1)
                    .children(DRILLED)
                    .jvmOptions(jvmOptions)
                    .healthTimeout(healthTimeout)
                    .classDataSharing(classDataSharing);
            postgresSettings.forEach(options::postgresSetting);
            settings.forEach((component, args) -> args.forEach(arg -> options.extraArg(component, arg)));
            replicas.forEach(options::replicas);
            try {
                return new OwnStack(LocalStack.start(options.build()), settings, jars, List.copyOf(jvmOptions));
            } catch (RuntimeException e) {
                deleteTree(jars);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies every service's runnable jar to {@code <dir>/<module>/target/}: a rebuild in the working tree while the
     * drill runs (a restart, a crash drill) must not hand a half-written jar to the stack.
     */
    static Path snapshotJars(Path dir) throws IOException {
        Path repo = RepositoryRoot.find(Path.of(""));
        for (Component child : DRILLED) {
            String module = child.id();
            Path jar = RepositoryRoot.runnableJar(repo, module);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("No runnable jar " + jar + "; build first: ./mvnw -DskipTests install");
            }
            Path copy = dir.resolve(module).resolve("target").resolve(jar.getFileName());
            Files.createDirectories(copy.getParent());
            Files.copy(jar, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        return dir;
    }

    @Override
    public Endpoints endpoints() {
        return new Endpoints(stack.urlOf(Component.ORDER_SERVICE), stack.urlOf(Component.PAYMENT_SERVICE),
                stack.managementUrlOf(Component.PAYMENT_SERVICE), stack.urlOf(Component.NOTIFICATION_SERVICE),
                stack.urlOf(Component.RECONCILIATION_SERVICE), stack.urlOf(Component.PG_SIMULATOR),
                stack.pgSimulatorAdminUrl(), stack.bootstrapServers(), stack.jdbcUrl("postgres"));
    }

    @Override
    public Tokens tokens() {
        return stack.tokens();
    }

    @Override
    public Map<String, Long> processes() {
        return stack.processes();
    }

    /** The drill's own JVM runs the stack's Kafka broker besides the load generator. */
    @Override
    public String launcherProcess() {
        return RunningStack.LAUNCHER;
    }

    /** @param component a component's id (every replica of it) or one replica's name, {@code payment-service-2} */
    @Override
    public void control(String component, String action) {
        stack.act(component, StackAction.parse(action)
                .orElseThrow(() -> new IllegalArgumentException("No action " + action)));
    }

    @Override
    public List<String> replicas(String service) {
        return stack.replicas(Component.fromId(service)
                .orElseThrow(() -> new IllegalArgumentException("No component " + service)));
    }

    @Override
    public String replicaUrl(String name) {
        return stack.urlOfReplica(name);
    }

    @Override
    public String replicaManagementUrl(String name) {
        return stack.managementUrlOfReplica(name);
    }

    @Override
    public String jdbcUrl(String database) {
        return stack.jdbcUrl(database);
    }

    @Override
    public String describe() {
        List<String> replicated = Component.childProcesses().stream()
                .filter(c -> stack.components().contains(c) && stack.replicas(c).size() > 1)
                .map(c -> c.id() + " x" + stack.replicas(c).size()).toList();
        return "own stack started by the drill (random ports, clean databases, data in " + stack.dataDir()
                + (replicated.isEmpty() ? "" : "; replicas " + replicated + " behind HAProxy") + "), settings " + settings
                + ", JVM options " + String.join(" ", jvmOptions);
    }

    @Override
    public void close() {
        try {
            stack.close();
        } finally {
            deleteTree(jars);
        }
    }
}
