package dev.payments.localstack.infra;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One PostgreSQL and one Kafka broker per test JVM, started on first use and stopped when the JVM exits, so every
 * integration test class of a module shares them (each test class asks for its own database). Integration tests
 * of every service use this one holder rather than each writing its own.
 */
public final class SharedTestInfrastructure {

    private static EmbeddedPostgresServer postgres;
    private static EmbeddedKafkaBroker kafka;

    private SharedTestInfrastructure() {
    }

    public static synchronized EmbeddedPostgresServer postgres() {
        if (postgres == null) {
            postgres = EmbeddedPostgresServer.start(EmbeddedPostgresServer.Options.forTests());
            Runtime.getRuntime().addShutdownHook(new Thread(postgres::close, "test-postgres-stop"));
        }
        return postgres;
    }

    public static synchronized EmbeddedKafkaBroker kafka() {
        if (kafka == null) {
            kafka = EmbeddedKafkaBroker.start(EmbeddedKafkaBroker.Options.defaults());
            Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "test-kafka-stop"));
        }
        return kafka;
    }

    /**
     * Spring Boot properties that point a service at the shared infrastructure and a fresh database of its own; for
     * {@code @DynamicPropertySource}: {@code properties.forEach((k, v) -> registry.add(k, () -> v))}.
     */
    public static Map<String, String> springProperties(String database) {
        EmbeddedPostgresServer pg = postgres();
        pg.createDatabase(database);
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", pg.jdbcUrl(database));
        properties.put("spring.datasource.username", pg.username());
        properties.put("spring.datasource.password", pg.password());
        properties.put("spring.kafka.bootstrap-servers", kafka().bootstrapServers());
        // Each test context gets its own slot and offsets, even when two contexts share a database name.
        properties.put("outbox.relay.slot-name", "outbox_" + database);
        properties.put("outbox.relay.offset-topic", "_outbox-offsets." + database);
        // Contexts of different test classes live side by side in one JVM: separate consumer groups, so one
        // context's listener never takes the partitions another context waits on.
        properties.put("spring.kafka.consumer.group-id", database);
        return properties;
    }
}
