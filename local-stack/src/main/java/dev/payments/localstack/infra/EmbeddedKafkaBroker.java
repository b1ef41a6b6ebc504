package dev.payments.localstack.infra;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka 4.3 KRaft cluster (combined broker and controller) inside this JVM.
 *
 * <p>Clients reach one SASL_PLAINTEXT listener and log in with SCRAM-SHA-512 ({@link KafkaCredentials}); the
 * {@code StandardAuthorizer} allows nothing without an ACL ({@link #grant(KafkaAccess)}). The super user
 * {@value #SUPER_USER} is written at format time (KRaft keeps SCRAM credentials in its metadata log, so the first one
 * cannot come from a client); it is the broker's own inter-broker login and what the launcher, the tests and the
 * drills inspect with ({@link #adminClientProperties()}). The KRaft controller listener stays PLAINTEXT on loopback:
 * KRaft cannot authenticate its controller listener with SCRAM (the credentials live in the metadata the controller
 * serves), it is neither advertised nor reachable off this host, and its peer (this same node) is
 * {@code User:ANONYMOUS}, a super user for that reason (docs/security.md).
 *
 * <p>Both listeners bind to 127.0.0.1. Ports and the log directory survive
 * {@link #stop()}, {@link #start()} and {@link #restart()}, so a drill can stop the broker under load and
 * bring the same one back with its topics, offsets, credentials, ACLs and committed consumer positions.
 */
public final class EmbeddedKafkaBroker implements EmbeddedServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    /** The broker's super user: its inter-broker login, and the operator's (launcher, tests, drills). */
    public static final String SUPER_USER = "admin";
    /** LOCAL ONLY: the super user's password in every embedded broker. */
    public static final KafkaCredentials ADMIN = KafkaCredentials.local(SUPER_USER);

    private final Options options;
    private final int port;
    private final int controllerPort;
    private final Path logDirectory;
    private final boolean temporaryLogDirectory;
    private final KraftNode node;
    private KafkaRaftServer server;

    public EmbeddedKafkaBroker(Options options) {
        this.options = options;
        // One picker for both listeners: two picks in a row may be handed the same free port, and KRaft refuses two
        // listeners on one port (a CI run's outbox tracing test met it).
        FreePorts.Distinct ports = new FreePorts.Distinct();
        this.port = ports.orPick(options.port());
        this.controllerPort = ports.orPick(options.controllerPort());
        this.temporaryLogDirectory = options.logDirectory() == null;
        this.logDirectory = temporaryLogDirectory
                ? TempDirectories.create("embedded-kafka-logs")
                : options.logDirectory().toAbsolutePath();
        this.node = new KraftNode(port, controllerPort, logDirectory);
    }

    /** Creates and starts a broker. */
    public static EmbeddedKafkaBroker start(Options options) {
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(options);
        broker.start();
        return broker;
    }

    /**
     * Starts the node, formatting the log directory on first use. Returns once the broker is registered and
     * unfenced, i.e. ready for clients. No-op if running.
     */
    @Override
    public synchronized void start() {
        if (server != null) {
            return;
        }
        long began = System.nanoTime();
        KafkaConfig config = KafkaConfig.fromProps(node.properties(options.overrides()), false);
        node.formatOnce(config);
        KafkaRaftServer starting = new KafkaRaftServer(config, Time.SYSTEM);
        try {
            starting.startup();
        } catch (RuntimeException e) {
            starting.shutdown();
            starting.awaitShutdown();
            throw new IllegalStateException("Kafka did not start on " + bootstrapServers(), e);
        }
        server = starting;
        log.info("Kafka started on {} with logs in {} ({} ms)", bootstrapServers(), logDirectory, millisSince(began));
    }

    /** Controlled shutdown; the log directory is kept. No-op if stopped. */
    @Override
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } finally {
            server = null;
        }
        log.info("Kafka on {} stopped", bootstrapServers());
    }

    /** Stops and starts again on the same log directory and ports. */
    public synchronized void restart() {
        stop();
        start();
    }

    @Override
    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Creates the topic (replication factor 1) unless it exists. */
    public void createTopic(String name, int partitions) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("could not create topic " + name, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        }
    }

    /**
     * Creates (or re-keys) the principal's SCRAM credential, LOCAL ONLY password {@code <principal>-local}, and adds
     * its ACLs. Idempotent, so the launcher runs it on every start, also on a log directory kept from before.
     */
    public void grant(KafkaAccess access) {
        createUser(access.localCredentials());
        try (Admin admin = admin()) {
            admin.createAcls(access.bindings()).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not create the ACLs of " + access.principal(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the ACLs of " + access.principal(), e);
        }
    }

    /** Creates or replaces a SCRAM-SHA-512 credential (the same call rotates a password). */
    public void createUser(KafkaCredentials credentials) {
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(credentials.username(),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, KraftNode.SCRAM_ITERATIONS), credentials.password())))
                    .all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not create the Kafka user " + credentials.username(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating the Kafka user " + credentials.username(), e);
        }
    }

    /** Bootstrap servers and the super user's login, for the launcher's, the tests' and the drills' own clients. */
    public Map<String, Object> adminClientProperties() {
        return ADMIN.clientProperties(bootstrapServers());
    }

    private Admin admin() {
        Map<String, Object> properties = new HashMap<>(adminClientProperties());
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return Admin.create(properties);
    }

    /** The bootstrap servers. */
    @Override
    public String url() {
        return bootstrapServers();
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path logDirectory() {
        return logDirectory;
    }

    @Override
    public synchronized void close() {
        try {
            stop();
        } finally {
            if (temporaryLogDirectory) {
                TempDirectories.deleteRecursively(logDirectory);
            }
        }
    }

    private static long millisSince(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos).toMillis();
    }

    /**
     * How to run the broker.
     *
     * @param port the PLAINTEXT port clients use; 0 picks a free port once and restarts keep it
     * @param controllerPort the KRaft CONTROLLER port; 0 picks a free one once
     * @param logDirectory a persistent directory, or {@code null} for a temporary one deleted on {@link #close()}
     * @param overrides broker settings that replace or add to the defaults
     */
    public record Options(int port, int controllerPort, Path logDirectory, Map<String, String> overrides) {

        public Options {
            overrides = Map.copyOf(overrides);
        }

        /** Random ports, temporary log directory. */
        public static Options defaults() {
            return new Options(0, 0, null, Map.of());
        }

        public Options withPort(int newPort) {
            return new Options(newPort, controllerPort, logDirectory, overrides);
        }

        public Options withControllerPort(int newPort) {
            return new Options(port, newPort, logDirectory, overrides);
        }

        public Options withLogDirectory(Path directory) {
            return new Options(port, controllerPort, directory, overrides);
        }

        public Options withOverride(String name, String value) {
            Map<String, String> merged = new TreeMap<>(overrides);
            merged.put(name, value);
            return new Options(port, controllerPort, logDirectory, merged);
        }
    }
}
