package dev.payments.localstack;

import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.TempDirectories;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started local stack: PostgreSQL and Kafka in this JVM (PostgreSQL's processes are its children), every
 * service in a JVM of its own. Each is a {@link ManagedComponent} that can be stopped, killed and started again on
 * its own; that is what the drills and the system tests do. {@link #close()} stops the children first, then the
 * infrastructure in reverse start order (Kafka, then PostgreSQL), so no service loses its database while it is still
 * shutting down.
 */
public final class RunningStack implements AutoCloseable {

    /** The contracts' topics; created up front so that consumers and the outbox relay do not race auto-creation. */
    static final List<String> TOPICS = List.of("order.events", "payment.events");
    static final int TOPIC_PARTITIONS = 4;
    /** The name {@link #processes()} gives this JVM. */
    public static final String LAUNCHER = "launcher";

    private static final Logger log = LoggerFactory.getLogger(RunningStack.class);

    private final LocalStackOptions options;
    private final Path repoDir;
    private final Path dataDir;
    private final StackPorts ports;
    private final EmbeddedPostgresServer postgres;
    private final EmbeddedKafkaBroker kafka;
    /** Started first, all at once; stopped last, in reverse order. */
    private final List<EmbeddedComponent> infrastructure;
    private final List<ChildProcess> children;
    /** Every component in start order. */
    private final List<ManagedComponent> components;
    /** In front of the replicated services; null when every service runs once. */
    private final LoadBalancer loadBalancer;
    private ControlServer control;
    private Tokens tokens;
    private Duration startup;
    private volatile boolean closed;
    private Thread exitHook;

    private RunningStack(LocalStackOptions options, Path repoDir, Path dataDir, StackPorts ports) {
        this.options = options;
        this.repoDir = repoDir;
        this.dataDir = dataDir;
        this.ports = ports;
        EmbeddedPostgresServer.Options postgresOptions = EmbeddedPostgresServer.Options.defaults()
                .withPort(ports.of(Component.POSTGRES))
                .withDataDirectory(dataDir.resolve("postgres"))
                .withLogFile(logFile(Component.POSTGRES))
                // This class orders the shutdown itself: the children must go before their database.
                .withRegisterShutdownHook(false);
        for (Map.Entry<String, String> setting : options.postgresSettings().entrySet()) {
            postgresOptions = postgresOptions.withSetting(setting.getKey(), setting.getValue());
        }
        this.postgres = new EmbeddedPostgresServer(postgresOptions);
        this.kafka = new EmbeddedKafkaBroker(EmbeddedKafkaBroker.Options.defaults()
                .withPort(ports.of(Component.KAFKA))
                .withLogDirectory(dataDir.resolve("kafka")));
        this.infrastructure = List.of(new EmbeddedComponent(Component.POSTGRES, postgres),
                new EmbeddedComponent(Component.KAFKA, kafka));
        List<ChildProcess> processes = new ArrayList<>();
        List<LoadBalancer.Frontend> frontends = new ArrayList<>();
        for (Component child : options.children()) {
            int count = options.replicas(child);
            Map<String, Integer> replicaPorts = new LinkedHashMap<>();
            Map<String, Integer> checkPorts = new LinkedHashMap<>();
            for (int n = 1; n <= count; n++) {
                String name = StackPorts.replicaName(child, n, count);
                processes.add(new ChildProcess(childSpec(child, name), options.healthTimeout(), options.stopTimeout(),
                        options.classDataSharing()));
                replicaPorts.put(name, ports.ofReplica(child, name));
                if (child.hasManagementPort()) {
                    checkPorts.put(name, ports.managementOfReplica(child, name));
                }
            }
            if (count > 1) {
                frontends.add(new LoadBalancer.Frontend(child, ports.of(child), replicaPorts, checkPorts));
            }
        }
        this.children = List.copyOf(processes);
        this.loadBalancer = frontends.isEmpty() ? null
                : new LoadBalancer(frontends, dataDir.resolve("run"), logFile(LoadBalancer.NAME));
        List<ManagedComponent> all = new ArrayList<>(infrastructure);
        all.addAll(children);
        this.components = List.copyOf(all);
    }

    /**
     * Resolves directories and ports and checks that the ports are free and the jars built; starts nothing.
     * Stale processes of a previous launcher that died without its shutdown hook are stopped here.
     */
    static RunningStack prepare(LocalStackOptions options) {
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

        RunningStack stack = new RunningStack(options, repoDir, dataDir, StackPorts.resolve(options));
        stack.requireJars();
        return stack;
    }

    /** Starts everything and returns once every child reports healthy; on failure stops what did start. */
    static RunningStack start(LocalStackOptions options) {
        RunningStack stack = prepare(options);
        stack.stopOnExit();
        try {
            stack.startAll();
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    /**
     * Stops everything this stack started when its JVM ends (Ctrl-C, SIGTERM) before {@link #close()} was called:
     * registered before anything starts, so a launcher killed during start-up leaves no PostgreSQL or service JVM
     * behind. Only {@code kill -9} escapes it; {@link Leftovers} cleans up after that on the next start.
     */
    void stopOnExit() {
        exitHook = new Thread(this::close, "local-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(exitHook);
    }

    /** Starts PostgreSQL and Kafka, then every child, and waits until all children report healthy. */
    void startAll() {
        long began = System.nanoTime();
        runAll();
        startup = Duration.ofNanos(System.nanoTime() - began);
    }

    private void runAll() {
        log.info("Starting the local stack from {} with data in {}", repoDir, dataDir);
        join(inParallel(infrastructure, EmbeddedComponent::start));
        children.forEach(child -> child.component().database().ifPresent(postgres::createDatabase));
        TOPICS.forEach(topic -> kafka.createTopic(topic, TOPIC_PARTITIONS));
        // Every service's principal (LOCAL ONLY password, as in its application-local.yml) and ACLs, before any
        // service connects; idempotent, so a kept log directory is brought up to date too.
        for (KafkaAccess.Service service : KafkaAccess.Service.values()) {
            kafka.grant(service.access());
        }
        if (closed) {
            throw new ChildFailedException("the local stack was closed while starting");
        }

        if (loadBalancer != null) {
            // Before the services: they reach each other (reconciliation -> payment-service) through it.
            loadBalancer.start();
        }
        if (options.controlPort() >= 0) {
            control = ControlServer.start(this, options.controlPort());
        }
        List<ChildProcess> startable = children.stream()
                .filter(child -> child.state() != ComponentState.MISSING).toList();
        children.stream().filter(child -> child.state() == ComponentState.MISSING).forEach(child ->
                log.warn("{} is not built ({} missing); starting the others", child.name(), child.spec().jar()));
        if (startable.isEmpty()) {
            return;
        }
        // Waves: every component's first instance at once, then every second replica, and so on. Eleven JVMs starting
        // together on two cores took longer than the health timeout (Spring's context alone 110 s each); a wave of
        // four or five starts in the time one took before, and the services are up (one replica each) after the first.
        Map<Integer, List<ChildProcess>> waves = new java.util.TreeMap<>();
        for (ChildProcess child : startable) {
            int replica = replicas(child.component()).indexOf(child.name());
            waves.computeIfAbsent(replica, ignored -> new ArrayList<>()).add(child);
        }
        for (List<ChildProcess> wave : waves.values()) {
            startTogether(wave);
        }
        if (loadBalancer != null) {
            loadBalancer.awaitInRotation(Duration.ofSeconds(15));
        }
    }

    private void startTogether(List<ChildProcess> wave) {
        ExecutorService starters = Executors.newFixedThreadPool(wave.size());
        try {
            List<CompletableFuture<Void>> started = wave.stream()
                    .map(child -> CompletableFuture.runAsync(child::start, starters))
                    .toList();
            List<String> failures = new ArrayList<>();
            for (CompletableFuture<Void> future : started) {
                try {
                    future.join();
                } catch (CompletionException e) {
                    failures.add(e.getCause().getMessage());
                }
            }
            if (!failures.isEmpty()) {
                throw new ChildFailedException(String.join("\n\n", failures));
            }
        } finally {
            starters.shutdownNow();
        }
    }

    /**
     * Stops one component, every replica of a replicated service at once: SIGTERM for a child (SIGKILL after the stop
     * timeout), a clean shutdown for PostgreSQL and Kafka.
     */
    public void stop(Component component) {
        each(instances(component), ManagedComponent::stop);
    }

    /** Starts one component again, every replica of it (no-op if running); returns once it reports healthy. */
    public void start(Component component) {
        each(instances(component), ManagedComponent::start);
    }

    public void restart(Component component) {
        stop(component);
        start(component);
    }

    /**
     * SIGKILL, like a crashed pod or host (every replica of a replicated service). For PostgreSQL the postmaster and
     * every backend. Kafka runs inside the launcher and cannot be killed apart from it: use {@link #stop(Component)}.
     */
    public void kill(Component component) {
        each(instances(component), ManagedComponent::kill);
    }

    /**
     * SIGSTOP to a child: it is frozen, not dead - every socket stays open, nothing is answered - like a paused VM or
     * a host behind a silent network cut. {@link #thaw(Component)} lets it run on.
     */
    public void freeze(Component component) {
        Signals.send("STOP", managed(component).pid());
    }

    public void thaw(Component component) {
        Signals.send("CONT", managed(component).pid());
    }

    /** {@link #freeze(Component)} by name: a component's id (all its replicas) or one replica's. */
    public void freeze(String name) {
        each(named(name), instance -> Signals.send("STOP", instance.pid()));
    }

    public void thaw(String name) {
        each(named(name), instance -> Signals.send("CONT", instance.pid()));
    }


    /** {@link #stop(Component)} by name: a component's id (all its replicas) or one replica's, {@code payment-service-2}. */
    public void stop(String name) {
        each(named(name), ManagedComponent::stop);
    }

    public void start(String name) {
        each(named(name), ManagedComponent::start);
    }

    public void restart(String name) {
        stop(name);
        start(name);
    }

    public void kill(String name) {
        each(named(name), ManagedComponent::kill);
    }

    /** The names of a component's instances: its id, or {@code <id>-1 .. <id>-n} when it runs as n replicas. */
    public List<String> replicas(Component component) {
        return instances(component).stream().map(ManagedComponent::name).toList();
    }

    /** One replica's own HTTP base URL, not the load balancer's. */
    public String urlOfReplica(String name) {
        List<ManagedComponent> found = named(name);
        if (found.size() != 1) {
            throw new IllegalArgumentException(name + " is not one replica; this stack has " + names());
        }
        return found.get(0).url();
    }

    /** Every instance's name, in start order. */
    public List<String> names() {
        return components.stream().map(ManagedComponent::name).toList();
    }

    /**
     * HTTP base URL of a child (the load balancer's for a replicated service), the JDBC URL of the {@code postgres}
     * database, or Kafka's bootstrap servers.
     */
    public String urlOf(Component component) {
        if (options.replicas(component) > 1) {
            return ChildArguments.httpUrl(ports.of(component));
        }
        return managed(component).url();
    }

    /** The token issuer: the {@code iss} of every token the services accept. */
    public String issuerUrl() {
        return ChildArguments.issuerUrl(ports::of);
    }

    /** Access tokens of this stack's issuer, signed in for once per user (and again before they expire). */
    public synchronized Tokens tokens() {
        if (tokens == null) {
            tokens = new Tokens(URI.create(issuerUrl()));
        }
        return tokens;
    }

    /**
     * The JWK set the local issuer signs with (its local profile keeps it in its working directory): the security
     * tests forge expired or misaddressed tokens with the real key.
     */
    public Path issuerSigningKey() {
        return workingDirectory(Component.AUTH_SERVER).resolve("signing-key.jwks.json");
    }

    /** Where a Spring Boot service serves actuator (probes, Prometheus, metrics); its API port serves only the API. */
    public String managementUrlOf(Component service) {
        return ChildArguments.httpUrl(ports.management(service));
    }

    /** Where one replica ({@code payment-service-2}) serves actuator: its own counters, not the service's. */
    public String managementUrlOfReplica(String name) {
        List<ManagedComponent> found = named(name);
        if (found.size() != 1) {
            throw new IllegalArgumentException(name + " is not one replica; this stack has " + names());
        }
        return ChildArguments.httpUrl(ports.managementOfReplica(found.get(0).component(), name));
    }

    /** The PG simulator's admin API (faults, ledger, stats), where drills inject failures. */
    public String pgSimulatorAdminUrl() {
        return ChildArguments.httpUrl(ports.pgSimulatorAdmin());
    }

    public int portOf(Component component) {
        return ports.of(component);
    }

    public String jdbcUrl(String database) {
        return postgres.jdbcUrl(database);
    }

    public String bootstrapServers() {
        return kafka.bootstrapServers();
    }

    /** Bootstrap servers and the broker's super user login: what an operator's tool (a drill, a test) connects with. */
    public Map<String, Object> kafkaAdminProperties() {
        return kafka.adminClientProperties();
    }

    public Path dataDir() {
        return dataDir;
    }

    public Path logFile(Component component) {
        return logFile(component.id());
    }

    /** The log of one instance by name ({@code payment-service-2}), or of the load balancer. */
    public Path logFile(String name) {
        return dataDir.resolve("logs").resolve(name + ".log");
    }

    /** The control endpoint's base URL, if it runs. */
    public Optional<String> controlUrl() {
        return Optional.ofNullable(control).map(server -> ChildArguments.httpUrl(server.port()) + "/control");
    }

    /** From starting PostgreSQL and Kafka to every child healthy. */
    public Duration startup() {
        return startup;
    }

    /** The components of this stack in start order: PostgreSQL, Kafka, then the chosen children. */
    public List<Component> components() {
        return components.stream().map(ManagedComponent::component).toList();
    }

    /** Of the component's only instance, or the first replica's. */
    public ComponentStatus status(Component component) {
        return status(managed(component));
    }

    public ComponentStatus status(String name) {
        return status(named(name).get(0));
    }

    public List<ComponentStatus> status() {
        return components.stream().map(RunningStack::status).toList();
    }

    /**
     * The process of every running component by its name (PostgreSQL: the postmaster, whose tree holds the backends),
     * and {@value #LAUNCHER} for this JVM (Kafka, and whatever else the caller runs in it): what to measure CPU of
     * ({@link ProcessCpu}). Cheap enough to ask every second, unlike {@link #status()} with its memory readings.
     */
    public Map<String, Long> processes() {
        Map<String, Long> pids = new LinkedHashMap<>();
        components.forEach(component -> component.pid().ifPresent(pid -> pids.put(component.name(), pid)));
        pids.put(LAUNCHER, ProcessHandle.current().pid());
        return pids;
    }

    private static ComponentStatus status(ManagedComponent component) {
        OptionalLong pid = component.pid();
        ResidentMemory.Usage memory = pid.isPresent()
                ? ResidentMemory.ofProcessTrees(List.of(pid.getAsLong())) : ResidentMemory.Usage.NONE;
        return new ComponentStatus(component.component(), component.name(), component.state(), pid, component.url(),
                memory.resident(),
                memory.proportional(), component.lastStartup(), component.lastExitCode());
    }

    /** VmRSS and PSS of this JVM (Kafka included), PostgreSQL's processes and every child. */
    public MemoryUsage memory() {
        List<Long> roots = new ArrayList<>();
        roots.add(ProcessHandle.current().pid());
        components.forEach(component -> component.pid().ifPresent(roots::add));
        loadBalancer().flatMap(balancer -> balancer.pid().isPresent() ? Optional.of(balancer.pid().getAsLong())
                : Optional.<Long>empty()).ifPresent(roots::add);
        // pg_ctl daemonises the postmaster, so it is not among this JVM's descendants; each pid is counted once.
        ResidentMemory.Usage total = ResidentMemory.ofProcessTrees(roots);
        ResidentMemory.Usage launcher = ResidentMemory.ofProcess(ProcessHandle.current().pid());
        return new MemoryUsage(total.resident(), total.proportional(), launcher.resident(), launcher.proportional());
    }

    /**
     * Bytes of memory. The VmRSS total counts shared pages (PostgreSQL's shared buffers, the JVMs' class data) once
     * per process; the PSS total splits them among their sharers and is what the machine actually spends.
     */
    public record MemoryUsage(long totalResident, long totalProportional, long launcherResident,
                              long launcherProportional) {
    }

    /**
     * Stops the children (in parallel, SIGTERM then SIGKILL after the stop timeout), then the infrastructure in
     * reverse start order: Kafka, then PostgreSQL.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (exitHook != null && Thread.currentThread() != exitHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException exiting) {
                // The JVM is already shutting down: the hook finds the stack closed and returns.
            }
        }
        log.info("Stopping the local stack");
        if (control != null) {
            control.close();
        }
        List<CompletableFuture<Void>> stopping = children.stream()
                .map(child -> CompletableFuture.runAsync(child::close))
                .toList();
        stopping.forEach(future -> {
            try {
                future.join();
            } catch (CompletionException e) {
                log.warn("stopping a child failed", e.getCause());
            }
        });
        if (loadBalancer != null) {
            loadBalancer.close();
        }
        for (int i = infrastructure.size() - 1; i >= 0; i--) {
            EmbeddedComponent component = infrastructure.get(i);
            try {
                component.close();
            } catch (RuntimeException e) {
                log.warn("stopping {} failed", component.name(), e);
            }
        }
        log.info("Local stack stopped");
    }

    private ManagedComponent managed(Component component) {
        return instances(component).get(0);
    }

    private List<ManagedComponent> instances(Component component) {
        List<ManagedComponent> found = components.stream().filter(managed -> managed.component() == component).toList();
        if (found.isEmpty()) {
            throw new IllegalArgumentException(component + " is not part of this stack");
        }
        return found;
    }

    /** A component's id (every instance of it) or one replica's name. */
    private List<ManagedComponent> named(String name) {
        Optional<Component> component = Component.fromId(name);
        if (component.isPresent()) {
            return instances(component.get());
        }
        return components.stream().filter(managed -> managed.name().equals(name)).findFirst().map(List::of)
                .orElseThrow(() -> new IllegalArgumentException("no component or replica " + name + "; this stack has "
                        + names()));
    }

    /** The load balancer in front of the replicated services, if any runs. */
    Optional<LoadBalancer> loadBalancer() {
        return Optional.ofNullable(loadBalancer);
    }

    /** Runs the action on every instance at once (replicas start in parallel) and passes on the first failure. */
    private static void each(List<ManagedComponent> instances, java.util.function.Consumer<ManagedComponent> action) {
        if (instances.size() == 1) {
            action.accept(instances.get(0));
            return;
        }
        join(inParallel(instances, action));
    }

    /**
     * The action on every item at once, each on a thread of its own that inherits this thread's context class loader.
     * Not the common pool: on JDK 25 its threads carry the system class loader, and the Kafka broker, which loads its
     * configured classes by name through the context loader, did not start from the drills' executable jar
     * (ConfigException: DefaultJwtRetriever could not be found).
     */
    private static <T> CompletableFuture<Void> inParallel(List<? extends T> items,
                                                          java.util.function.Consumer<? super T> action) {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, items.size()));
        CompletableFuture<Void> all = CompletableFuture.allOf(items.stream()
                .map(item -> CompletableFuture.runAsync(() -> action.accept(item), threads))
                .toArray(CompletableFuture[]::new));
        all.whenComplete((ignored, failure) -> threads.shutdown());
        return all;
    }

    private ChildSpec childSpec(Component component, String name) {
        int port = ports.ofReplica(component, name);
        String baseUrl = ChildArguments.httpUrl(port);
        HealthProbe probe = component == Component.PG_SIMULATOR
                ? HealthProbe.StatusUp.pgSimulatorAdmin(pgSimulatorAdminUrl())
                : HealthProbe.StatusUp.actuator(ChildArguments.httpUrl(ports.managementOfReplica(component, name)));
        List<String> arguments = ChildArguments.of(component, name, port,
                component.hasManagementPort() ? ports.managementOfReplica(component, name) : 0, ports::of,
                ports.pgSimulatorAdmin(), postgres::jdbcUrl, kafka.bootstrapServers(), options.extraArgs(component));
        return new ChildSpec(component, name, Path.of(System.getProperty("java.home"), "bin", "java"),
                RepositoryRoot.runnableJar(repoDir, component.id()), options.jvmOptions(), arguments, baseUrl, probe,
                logFile(name), dataDir.resolve("run").resolve(name + ".pid"), workingDirectory(name));
    }

    private Path workingDirectory(Component component) {
        return workingDirectory(component.id());
    }

    private Path workingDirectory(String name) {
        return dataDir.resolve("work").resolve(name);
    }

    private void requireJars() {
        List<String> missing = children.stream()
                .filter(child -> child.state() == ComponentState.MISSING)
                .map(child -> "  " + child.name() + ": " + child.spec().jar())
                .toList();
        if (!missing.isEmpty() && !options.allowMissingJars()) {
            throw new IllegalStateException("Runnable jars are missing:\n" + String.join("\n", missing)
                    + "\nBuild them first: ./mvnw -DskipTests install (or start anyway with --allow-missing)");
        }
    }

    private static void join(CompletableFuture<Void> future) {
        try {
            future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
