package dev.payments.localstack.infra;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
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
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final String CLIENT_LISTENER = "SASL_PLAINTEXT";
    /** The broker's super user: its inter-broker login, and the operator's (launcher, tests, drills). */
    public static final String SUPER_USER = "admin";
    /** LOCAL ONLY: the super user's password in every embedded broker. */
    public static final KafkaCredentials ADMIN = KafkaCredentials.local(SUPER_USER);

    private final Options options;
    private final int port;
    private final int controllerPort;
    private final Path logDirectory;
    private final boolean temporaryLogDirectory;
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
        KafkaConfig config = KafkaConfig.fromProps(brokerProperties(), false);
        formatOnce(config);
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
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS), credentials.password())))
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

    private Properties brokerProperties() {
        Map<String, String> settings = new TreeMap<>();
        settings.put("process.roles", "broker,controller");
        settings.put("node.id", String.valueOf(NODE_ID));
        settings.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        settings.put("listeners", CLIENT_LISTENER + "://127.0.0.1:" + port + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        settings.put("advertised.listeners", CLIENT_LISTENER + "://127.0.0.1:" + port);
        settings.put("listener.security.protocol.map",
                CLIENT_LISTENER + ":SASL_PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        settings.put("controller.listener.names", CONTROLLER_LISTENER);
        settings.put("inter.broker.listener.name", CLIENT_LISTENER);
        settings.put("sasl.enabled.mechanisms", KafkaCredentials.MECHANISM);
        settings.put("sasl.mechanism.inter.broker.protocol", KafkaCredentials.MECHANISM);
        settings.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", ADMIN.jaasConfig());
        settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("allow.everyone.if.no.acl.found", "false");
        // ANONYMOUS is who this node is on its own PLAINTEXT controller listener (see the class comment); no client
        // listener is PLAINTEXT, so no client is ever ANONYMOUS.
        settings.put("super.users", "User:" + SUPER_USER + ";User:ANONYMOUS");
        settings.put("log.dirs", logDirectory.toString());

        // One node: every internal topic gets replication factor 1 and min ISR 1.
        settings.put("offsets.topic.replication.factor", "1");
        settings.put("offsets.topic.num.partitions", "4");
        settings.put("transaction.state.log.replication.factor", "1");
        settings.put("transaction.state.log.min.isr", "1");
        settings.put("transaction.state.log.num.partitions", "4");
        settings.put("share.coordinator.state.topic.replication.factor", "1");
        settings.put("share.coordinator.state.topic.min.isr", "1");
        settings.put("default.replication.factor", "1");
        settings.put("min.insync.replicas", "1");

        settings.put("group.initial.rebalance.delay.ms", "0");
        settings.put("auto.create.topics.enable", "true");
        settings.put("num.partitions", "4");
        // A node restarted on the same log dir after a crash re-registers with a new incarnation; the controller
        // rejects it (DuplicateBrokerRegistrationException) until the old session expires: 9 s plus retries by
        // default (STACK.md). A clean stop() does not wait at all. Not shorter than 5 s: on a starved 2-core
        // machine (whole stack plus a load generator) the controller queue lagged 2 s behind heartbeats, and a
        // fenced single broker takes every partition offline.
        settings.put("broker.session.timeout.ms", "5000");
        settings.put("broker.heartbeat.interval.ms", "1000");
        // Sized for a laptop and a 2-core CI machine; the cleaner's default dedupe buffer alone is 128 MB of heap.
        settings.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        settings.put("num.network.threads", "2");
        settings.put("num.io.threads", "4");
        settings.putAll(options.overrides());

        Properties properties = new Properties();
        properties.putAll(settings);
        return properties;
    }

    private void formatOnce(KafkaConfig config) {
        if (Files.exists(logDirectory.resolve("meta.properties"))) {
            if (!Files.exists(logDirectory.resolve(SASL_MARKER))) {
                throw new IllegalStateException("the Kafka log directory " + logDirectory + " was formatted without"
                        + " SASL credentials: delete it, or start the local stack with --clean");
            }
            return;
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream printStream = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(printStream)
                    .setNodeId(NODE_ID)
                    .setClusterId(Uuid.randomUuid().toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .setDirectories(List.of(logDirectory.toString()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setScramArguments(List.of(KafkaCredentials.MECHANISM + "=[name=" + ADMIN.username()
                            + ",iterations=" + SCRAM_ITERATIONS + ",password=" + ADMIN.password() + "]"))
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("could not format Kafka log directory " + logDirectory, e);
        }
        try {
            Files.writeString(logDirectory.resolve(SASL_MARKER), "formatted with the SCRAM super user\n");
        } catch (IOException e) {
            throw new IllegalStateException("could not write " + logDirectory.resolve(SASL_MARKER), e);
        }
        log.debug("Formatted {}: {}", logDirectory, output.toString(StandardCharsets.UTF_8).trim());
    }

    // Kafka's minimum; a local password needs no more, and every login of every client hashes this many times.
    private static final int SCRAM_ITERATIONS = 4096;
    private static final String SASL_MARKER = "sasl.formatted";

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
