package dev.payments.localstack;

import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A started local stack: PostgreSQL and Kafka in this JVM (PostgreSQL's processes are its children), every
 * service in a JVM of its own. Each is a {@link ManagedComponent} that can be stopped, killed and started again on
 * its own; that is what the drills and the system tests do. {@link #close()} stops the children first, then the
 * infrastructure in reverse start order (Kafka, then PostgreSQL), so no service loses its database while it is still
 * shutting down.
 */
public final class RunningStack implements AutoCloseable {

    /** The name {@link #processes()} gives this JVM. */
    public static final String LAUNCHER = "launcher";

    private static final Logger log = LoggerFactory.getLogger(RunningStack.class);

    private final LocalStackOptions options;
    private final StackLayout layout;
    private final StackPorts ports;
    private final EmbeddedPostgresServer postgres;
    private final EmbeddedKafkaBroker kafka;
    private final StackMembers members;
    private ControlServer control;
    private Tokens tokens;
    private Duration startup;
    private volatile boolean closed;
    private Thread exitHook;

    private RunningStack(StackLayout layout) {
        this.layout = layout;
        this.options = layout.options;
        this.ports = layout.ports;
        this.postgres = layout.postgres();
        this.kafka = layout.kafka();
        this.members = layout.members(postgres, kafka);
    }

    /**
     * Resolves directories and ports and checks that the ports are free and the jars built; starts nothing.
     * Stale processes of a previous launcher that died without its shutdown hook are stopped here.
     */
    static RunningStack prepare(LocalStackOptions options) {
        return new RunningStack(StackLayout.resolve(options));
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
        log.info("Starting the local stack from {} with data in {}", layout.repoDir, layout.dataDir);
        members.startInfrastructure();
        StackProvisioning.provision(postgres, kafka, members.children());
        if (closed) {
            throw new ChildFailedException("the local stack was closed while starting");
        }
        // Before the services: they reach each other (reconciliation -> payment-service) through it.
        members.loadBalancer().ifPresent(LoadBalancer::start);
        if (options.controlPort() >= 0) {
            control = ControlServer.start(this, options.controlPort());
        }
        members.startChildren();
        startup = Duration.ofNanos(System.nanoTime() - began);
    }

    /** Stops one component, every replica of a replicated service at once ({@link StackAction#STOP}). */
    public void stop(Component component) {
        act(component.id(), StackAction.STOP);
    }

    /** Starts one component again, every replica of it (no-op if running); returns once it reports healthy. */
    public void start(Component component) {
        act(component.id(), StackAction.START);
    }

    public void restart(Component component) {
        act(component.id(), StackAction.RESTART);
    }

    /** SIGKILL, like a crashed pod or host, to every replica ({@link StackAction#KILL}). */
    public void kill(Component component) {
        act(component.id(), StackAction.KILL);
    }

    /**
     * The action on a component by id (every replica of it at once) or on one replica ({@code payment-service-2});
     * a restart stops every instance before it starts any.
     */
    public void act(String name, StackAction action) {
        if (action == StackAction.RESTART) {
            act(name, StackAction.STOP);
            act(name, StackAction.START);
            return;
        }
        StackMembers.each(members.named(name), action::on);
    }

    /** The names of a component's instances: its id, or {@code <id>-1 .. <id>-n} when it runs as n replicas. */
    public List<String> replicas(Component component) {
        return members.instances(component).stream().map(ManagedComponent::name).toList();
    }

    /** One replica's own HTTP base URL, not the load balancer's. */
    public String urlOfReplica(String name) {
        return members.replica(name).url();
    }

    /** Every instance's name, in start order. */
    public List<String> names() {
        return members.names();
    }

    /**
     * HTTP base URL of a child (the load balancer's for a replicated service), the JDBC URL of the {@code postgres}
     * database, or Kafka's bootstrap servers.
     */
    public String urlOf(Component component) {
        if (options.replicas(component) > 1) {
            return ChildArguments.httpUrl(ports.of(component));
        }
        return members.instances(component).get(0).url();
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
        return layout.workingDirectory(Component.AUTH_SERVER.id()).resolve("signing-key.jwks.json");
    }

    /** Where a Spring Boot service serves actuator (probes, Prometheus, metrics); its API port serves only the API. */
    public String managementUrlOf(Component service) {
        return ChildArguments.httpUrl(ports.management(service));
    }

    /** Where one replica ({@code payment-service-2}) serves actuator: its own counters, not the service's. */
    public String managementUrlOfReplica(String name) {
        return ChildArguments.httpUrl(ports.managementOfReplica(members.replica(name).component(), name));
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

    public Path dataDir() {
        return layout.dataDir;
    }

    public Path logFile(Component component) {
        return logFile(component.id());
    }

    /** The log of one instance by name ({@code payment-service-2}), or of the load balancer. */
    public Path logFile(String name) {
        return layout.logFile(name);
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
        return members.all().stream().map(ManagedComponent::component).toList();
    }

    /** Of the component's only instance, or the first replica's. */
    public ComponentStatus status(Component component) {
        return StackMembers.status(members.instances(component).get(0));
    }

    public ComponentStatus status(String name) {
        return StackMembers.status(members.named(name).get(0));
    }

    public List<ComponentStatus> status() {
        return members.all().stream().map(StackMembers::status).toList();
    }

    /**
     * The process of every running component by its name (PostgreSQL: the postmaster, whose tree holds the backends),
     * and {@value #LAUNCHER} for this JVM (Kafka, and whatever else the caller runs in it): what to measure CPU of
     * ({@link ProcessCpu}). Cheap enough to ask every second, unlike {@link #status()} with its memory readings.
     */
    public Map<String, Long> processes() {
        return members.processes(LAUNCHER);
    }

    /** VmRSS and PSS of this JVM (Kafka included), PostgreSQL's processes and every child. */
    public MemoryUsage memory() {
        return members.memory();
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
        members.stopAll();
        log.info("Local stack stopped");
    }

    /** The load balancer in front of the replicated services, if any runs. */
    Optional<LoadBalancer> loadBalancer() {
        return members.loadBalancer();
    }
}
