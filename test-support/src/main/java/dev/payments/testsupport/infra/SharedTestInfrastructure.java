package dev.payments.testsupport.infra;

import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.localstack.infra.KafkaCredentials;
import dev.payments.localstack.infra.ServiceDatabases;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One PostgreSQL and one Kafka broker per test JVM, started on first use and stopped when the JVM exits, so every
 * integration test class of a module shares them (each test class asks for its own database). Integration tests
 * of every service use this one holder rather than each writing its own.
 *
 * <p>One switch, the system property {@value #MODE_PROPERTY}:
 * <ul>
 *   <li>{@code embedded} (default, the only one that runs on the project's machines): zonky's embedded PostgreSQL 17
 *       and the in-process KRaft broker of this module;</li>
 *   <li>{@code testcontainers}: a PostgreSQL container ({@code postgres:17}, with the same server settings:
 *       {@code wal_level=logical}, {@code synchronous_commit=on} ...) and an {@code apache/kafka} container in KRaft
 *       mode, for machines with a container engine: {@code ./mvnw verify -Dtest.infrastructure=testcontainers}.
 *       The property also activates the {@code testcontainers} profile of this module's POM, which puts the
 *       Testcontainers jars on every module's test classpath (they are optional otherwise). Images can be changed
 *       with {@code -Dtest.infrastructure.postgres-image=...} and {@code -Dtest.infrastructure.kafka-image=...}.</li>
 * </ul>
 * {@link #springProperties(String)}, {@link #jdbcUrl(String)} and {@link #kafkaBootstrapServers()} follow the switch.
 * {@link #postgres()} and {@link #kafka()} hand out the embedded servers themselves (for tests that stop, kill or
 * restart them) and refuse in container mode rather than silently mixing infrastructures.
 */
public final class SharedTestInfrastructure {

    /** System property that selects the infrastructure: {@code embedded} (default) or {@code testcontainers}. */
    public static final String MODE_PROPERTY = "test.infrastructure";

    private static EmbeddedPostgresServer postgres;
    private static EmbeddedKafkaBroker kafka;

    private SharedTestInfrastructure() {
    }

    /** True when {@code -Dtest.infrastructure=testcontainers}; anything else but {@code embedded} (or unset) fails. */
    public static boolean usesTestcontainers() {
        String mode = System.getProperty(MODE_PROPERTY, "embedded").trim().toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "", "embedded" -> false;
            case "testcontainers" -> true;
            default -> throw new IllegalStateException(
                    MODE_PROPERTY + " must be 'embedded' (default) or 'testcontainers', not '" + mode + "'");
        };
    }

    public static synchronized EmbeddedPostgresServer postgres() {
        requireEmbedded("postgres()", "springProperties(database) or jdbcUrl(database)");
        if (postgres == null) {
            postgres = EmbeddedPostgresServer.start(EmbeddedPostgresServer.Options.forTests());
            Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "test-postgres-stop"));
        }
        return postgres;
    }

    public static synchronized EmbeddedKafkaBroker kafka() {
        requireEmbedded("kafka()", "kafkaBootstrapServers()");
        if (kafka == null) {
            kafka = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Options.defaults());
            Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "test-kafka-stop"));
        }
        return kafka;
    }

    /** Bootstrap servers of the shared broker, embedded or container. */
    public static String kafkaBootstrapServers() {
        return usesTestcontainers() ? Containers.kafkaBootstrapServers() : kafka().bootstrapServers();
    }

    /**
     * Bootstrap servers and the broker's super user login, for a test's own clients (reading a topic, creating one,
     * inspecting a group): what an operator's tool would use, not a service's rights.
     */
    public static Map<String, Object> kafkaClientProperties() {
        if (usesTestcontainers()) {
            // The container broker is not set up with SASL (it cannot be tried on the project's machines).
            return new LinkedHashMap<>(Map.of("bootstrap.servers", Containers.kafkaBootstrapServers()));
        }
        return new LinkedHashMap<>(kafka().adminClientProperties());
    }

    /** {@code spring.kafka.*} for the shared broker as its super user: bootstrap servers and the SASL login. */
    public static Map<String, String> kafkaSpringProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", kafkaBootstrapServers());
        if (usesTestcontainers()) {
            properties.putAll(CONTAINER_KAFKA_LOGIN);
        } else {
            properties.putAll(EmbeddedKafkaBroker.ADMIN.springProperties());
        }
        return properties;
    }

    /**
     * The container broker has no SASL listener and no ACLs (those are the embedded broker's and the compose
     * topology's, docs/security.md): a service in container mode speaks plain Kafka, whatever its SASL default.
     */
    private static final Map<String, String> CONTAINER_KAFKA_LOGIN = Map.of("spring.kafka.security.protocol", "PLAINTEXT");

    /**
     * {@link #springProperties(String)} with the Kafka login of a principal that has exactly {@code service}'s ACLs
     * under the test's names (principal, consumer group and offset topic all {@code database}): a test context then
     * finds out, as the deployed service would, if it touches a topic or group that is not its own.
     */
    public static Map<String, String> springProperties(String database, KafkaAccess.Service service) {
        return springProperties(database, service.as(database));
    }

    /**
     * Creates the database and its owning role unless they exist and returns its JDBC URL (the role is named like the
     * database, its password is {@link ServiceDatabases#passwordOf(String)}; the superuser is {@code postgres}).
     */
    public static String jdbcUrl(String database) {
        if (usesTestcontainers()) {
            Containers.createDatabase(database);
            return Containers.jdbcUrl(database);
        }
        EmbeddedPostgresServer pg = postgres();
        pg.createDatabase(database);
        return pg.jdbcUrl(database);
    }

    /**
     * Spring Boot properties that point a service at the shared infrastructure and a fresh database of its own; for
     * {@code @DynamicPropertySource}: {@code properties.forEach((k, v) -> registry.add(k, () -> v))}. Kafka is reached
     * over SASL/SCRAM as the broker's super user: for library tests whose topics belong to no service; a service's
     * test takes {@link #springProperties(String, KafkaAccess.Service)}.
     */
    public static Map<String, String> springProperties(String database) {
        return springProperties(database, (KafkaAccess) null);
    }

    /**
     * {@link #springProperties(String)} with the Kafka login of {@code access}'s principal, granted on the shared
     * broker first; its group is the context's consumer group and its offset topic the relay's.
     *
     * @param access the ACLs the context's Kafka login gets, or null for the broker's super user (library tests)
     */
    public static Map<String, String> springProperties(String database, KafkaAccess access) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", jdbcUrl(database));
        // As in production: the service's own role, owning only its database, never the superuser.
        properties.put("spring.datasource.username", database);
        properties.put("spring.datasource.password", ServiceDatabases.passwordOf(database));
        properties.put("spring.kafka.bootstrap-servers", kafkaBootstrapServers());
        // Each test context gets its own slot and offsets, even when two contexts share a database name.
        properties.put("outbox.relay.slot-name", "outbox_" + database);
        properties.put("outbox.relay.offset-topic", access != null && access.offsetTopic() != null
                ? access.offsetTopic() : "_outbox-offsets." + database);
        // Contexts of different test classes live side by side in one JVM: separate consumer groups, so one
        // context's listener never takes the partitions another context waits on.
        properties.put("spring.kafka.consumer.group-id", access != null ? access.group() : database);
        if (usesTestcontainers()) {
            properties.putAll(CONTAINER_KAFKA_LOGIN);
        } else {
            KafkaCredentials login = EmbeddedKafkaBroker.ADMIN;
            if (access != null) {
                kafka().grant(access);
                login = access.localCredentials();
            }
            properties.putAll(login.springProperties());
        }
        return properties;
    }

    private static void requireEmbedded(String method, String instead) {
        if (usesTestcontainers()) {
            throw new IllegalStateException(method + " hands out the embedded server, but " + MODE_PROPERTY
                    + "=testcontainers: use " + instead + " (or run this test with the embedded default)");
        }
    }

    /**
     * The container side, in its own class so that Testcontainers (optional at run time) is loaded only when the
     * switch asks for it: the embedded default never touches these classes.
     */
    private static final class Containers {

        private static PostgreSQLContainer<?> postgres;
        private static KafkaContainer kafka;

        private Containers() {
        }

        private static synchronized PostgreSQLContainer<?> postgres() {
            if (postgres == null) {
                DockerImageName image = DockerImageName.parse(
                        System.getProperty(MODE_PROPERTY + ".postgres-image", "postgres:17"))
                        .asCompatibleSubstituteFor("postgres");
                PostgreSQLContainer<?> container = new PostgreSQLContainer<>(image)
                        .withUsername(EmbeddedPostgresServer.USERNAME)
                        .withPassword(EmbeddedPostgresServer.PASSWORD)
                        .withDatabaseName("postgres")
                        // EmbeddedPostgresServer.Options.forTests(): logical replication for the outbox relays,
                        // synchronous_commit on (off delays each CDC event), no fsync for speed.
                        .withCommand("postgres",
                                "-c", "wal_level=logical",
                                "-c", "max_wal_senders=20",
                                "-c", "max_replication_slots=20",
                                "-c", "synchronous_commit=on",
                                "-c", "max_slot_wal_keep_size=1GB",
                                "-c", "max_connections=300",
                                "-c", "timezone=UTC",
                                "-c", "fsync=off",
                                "-c", "full_page_writes=off");
                container.start();
                Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "test-postgres-container-stop"));
                postgres = container;
            }
            return postgres;
        }

        static String jdbcUrl(String database) {
            PostgreSQLContainer<?> container = postgres();
            return "jdbc:postgresql://" + container.getHost() + ":"
                    + container.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT) + "/" + database;
        }

        static void createDatabase(String name) {
            ServiceDatabases.create(() -> DriverManager.getConnection(jdbcUrl("postgres"),
                    EmbeddedPostgresServer.USERNAME, EmbeddedPostgresServer.PASSWORD), name);
        }

        static synchronized String kafkaBootstrapServers() {
            if (kafka == null) {
                // Another image (payments/kafka:4.3.0, built where no registry is reachable) stands in for
                // apache/kafka only if it keeps that image's launcher, which KafkaContainer drives: deploy/docker/kafka.
                KafkaContainer container = new KafkaContainer(DockerImageName.parse(
                        System.getProperty(MODE_PROPERTY + ".kafka-image", "apache/kafka:4.3.0"))
                        .asCompatibleSubstituteFor("apache/kafka"))
                        // as the embedded broker: 4 partitions per auto-created topic, no rebalance delay
                        .withEnv("KAFKA_NUM_PARTITIONS", "4")
                        .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                        .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "true");
                container.start();
                Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "test-kafka-container-stop"));
                kafka = container;
            }
            return kafka.getBootstrapServers();
        }
    }
}
