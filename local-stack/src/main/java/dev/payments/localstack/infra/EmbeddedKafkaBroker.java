package dev.payments.localstack.infra;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * <p>PLAINTEXT and CONTROLLER listeners bind to 127.0.0.1. Ports and the log directory survive
 * {@link #stop()}, {@link #start()} and {@link #restart()}, so a drill can stop the broker under load and
 * bring the same one back with its topics, offsets and committed consumer positions.
 */
public final class EmbeddedKafkaBroker implements EmbeddedServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";

    private final Options options;
    private final int port;
    private final int controllerPort;
    private final Path logDirectory;
    private final boolean temporaryLogDirectory;
    private KafkaRaftServer server;

    public EmbeddedKafkaBroker(Options options) {
        this.options = options;
        this.port = FreePorts.orPick(options.port());
        this.controllerPort = FreePorts.orPick(options.controllerPort());
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
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000))) {
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
        settings.put("listeners", "PLAINTEXT://127.0.0.1:" + port + "," + CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort);
        settings.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        settings.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        settings.put("controller.listener.names", CONTROLLER_LISTENER);
        settings.put("inter.broker.listener.name", "PLAINTEXT");
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
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("could not format Kafka log directory " + logDirectory, e);
        }
        log.debug("Formatted {}: {}", logDirectory, output.toString(StandardCharsets.UTF_8).trim());
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
