package dev.payments.localstack.infra;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import kafka.server.KafkaConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How {@link EmbeddedKafkaBroker}'s one KRaft node is configured (combined broker and controller, a SASL client
 * listener, a loopback controller listener) and how its log directory is formatted once, with the super user's SCRAM
 * credential (KRaft keeps credentials in its metadata log, so the first one cannot come from a client).
 */
final class KraftNode {

    // Kafka's minimum; a local password needs no more, and every login of every client hashes this many times.
    static final int SCRAM_ITERATIONS = 4096;
    private static final Logger log = LoggerFactory.getLogger(KraftNode.class);
    private static final int NODE_ID = 1;
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final String CLIENT_LISTENER = "SASL_PLAINTEXT";
    private static final String SASL_MARKER = "sasl.formatted";

    private final int port;
    private final int controllerPort;
    private final Path logDirectory;

    KraftNode(int port, int controllerPort, Path logDirectory) {
        this.port = port;
        this.controllerPort = controllerPort;
        this.logDirectory = logDirectory;
    }

    /** The node's settings: the defaults below, then {@code overrides}. */
    Properties properties(Map<String, String> overrides) {
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
        settings.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", EmbeddedKafkaBroker.ADMIN.jaasConfig());
        settings.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        settings.put("allow.everyone.if.no.acl.found", "false");
        // ANONYMOUS is who this node is on its own PLAINTEXT controller listener (see the class comment); no client
        // listener is PLAINTEXT, so no client is ever ANONYMOUS.
        settings.put("super.users", "User:" + EmbeddedKafkaBroker.SUPER_USER + ";User:ANONYMOUS");
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
        settings.putAll(overrides);

        Properties properties = new Properties();
        properties.putAll(settings);
        return properties;
    }

    /**
     * Formats the log directory on first use, with the super user's SCRAM credential; refuses a directory formatted
     * without one.
     */
    void formatOnce(KafkaConfig config) {
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
                    .setScramArguments(List.of(KafkaCredentials.MECHANISM + "=[name=" + EmbeddedKafkaBroker.ADMIN.username()
                            + ",iterations=" + SCRAM_ITERATIONS + ",password=" + EmbeddedKafkaBroker.ADMIN.password() + "]"))
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
}
