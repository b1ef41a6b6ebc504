package dev.payments.drills.stack;

import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.EmbeddedKafkaBroker;
import dev.payments.localstack.infra.EmbeddedPostgresServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import java.util.List;
import java.util.Map;

/** Where the system under drill answers, and the operator's handle to stop, start or kill its parts. */
public interface Target extends AutoCloseable {

    /**
     * Where the parts answer: each service's API (and payment-service's management port: its Prometheus scrape and
     * the breaker's metric), the PG simulator's API and admin API, Kafka, and the PostgreSQL server (its maintenance
     * database, reached as its superuser).
     */
    record Endpoints(String order, String payment, String paymentManagement, String notification,
                     String reconciliation, String pg, String pgAdmin, String bootstrapServers,
                     String postgresJdbcUrl) {
    }

    Endpoints endpoints();

    /**
     * Bootstrap servers and the broker's super user login, for the drill's own Kafka clients (lag, audit): every
     * target is a local stack, whose embedded broker has the LOCAL ONLY super user of {@link EmbeddedKafkaBroker}.
     */
    default Map<String, Object> kafkaClient() {
        return EmbeddedKafkaBroker.ADMIN.clientProperties(endpoints().bootstrapServers());
    }

    /** One database of the stack (a service's), reached as the superuser. */
    default String jdbcUrl(String database) {
        String server = endpoints().postgresJdbcUrl();
        return server.substring(0, server.lastIndexOf('/') + 1) + database;
    }

    /** A connection to one database of the stack as the superuser. */
    default Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), EmbeddedPostgresServer.USERNAME,
                EmbeddedPostgresServer.PASSWORD);
    }

    /**
     * The processes to measure CPU of, by name (PostgreSQL: its postmaster, whose tree holds every backend); asked
     * every second, so a restarted service is followed. Empty when the stack's processes cannot be seen.
     */
    default Map<String, Long> processes() {
        return Map.of();
    }

    /**
     * Whether the payment side learns orders from {@code order.events} (ours does, so the drill waits until it has
     * consumed them before the load).
     */
    default boolean learnsOrdersFromKafka() {
        return true;
    }

    /** Which of {@link #processes()} is this JVM (measured alone, without the child JVMs it started), or null. */
    default String launcherProcess() {
        return null;
    }

    /**
     * Access tokens of the target's issuer: the load generator signs each member in once and reuses the token until
     * shortly before it expires; reads of reconciliation go as operator-1.
     */
    Tokens tokens();

    /**
     * @param component a local-stack component id ({@code postgres}, {@code kafka}, {@code payment-service}, ...)
     * @param action    {@code stop}, {@code start}, {@code restart}, {@code kill}, {@code freeze} (SIGSTOP) or
     *                  {@code thaw} (SIGCONT); returns once done (start: healthy)
     */
    void control(String component, String action);

    /**
     * The instances of a service by name: the service's id for one, {@code <id>-1 .. <id>-n} for several replicas
     * (each addressable in {@link #control}).
     */
    default List<String> replicas(String service) {
        return List.of(service);
    }

    /** One instance's own API base URL, not the load balancer's. */
    default String replicaUrl(String name) {
        return switch (name) {
            case "order-service" -> endpoints().order();
            case "payment-service" -> endpoints().payment();
            case "notification-service" -> endpoints().notification();
            case "reconciliation-service" -> endpoints().reconciliation();
            default -> throw new IllegalArgumentException("no instance " + name);
        };
    }

    /**
     * One instance's own management URL (actuator: its metrics say what that replica does). Beyond payment-service's
     * only a stack the drill started itself knows them.
     */
    default String replicaManagementUrl(String name) {
        if (name.equals("payment-service")) {
            return endpoints().paymentManagement();
        }
        throw new UnsupportedOperationException("the management port of " + name
                + " is known only to the drill's own stack (run without --external)");
    }

    /** What this target is, for the report: "own stack (random ports)" or the URLs of an external one. */
    String describe();

    @Override
    void close();
}
