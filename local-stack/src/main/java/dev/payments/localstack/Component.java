package dev.payments.localstack;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What the local stack runs. Infrastructure lives in the launcher's JVM (PostgreSQL as its own processes); the rest each in a JVM of its own. */
public enum Component {

    POSTGRES("postgres", 15432, null, false),
    KAFKA("kafka", 9092, null, false),
    PG_SIMULATOR("pg-simulator", 8090, null, false),
    /** The token issuer (Spring Authorization Server): members, operators and services get their tokens here. */
    AUTH_SERVER("auth-server", 9000, null, true),
    ORDER_SERVICE("order-service", 8081, "orders", true),
    PAYMENT_SERVICE("payment-service", 8082, "payments", true),
    NOTIFICATION_SERVICE("notification-service", 8083, "notifications", true),
    RECONCILIATION_SERVICE("reconciliation-service", 8084, "reconciliation", true),
    /** The operators' web console: signs people in at auth-server, calls the services' APIs with their tokens. */
    OPERATOR_CONSOLE("operator-console", 8095, null, true);

    /** A Spring Boot app's actuator port is its API port plus this, as in each application.yml (8082 -> 9082). */
    private static final int MANAGEMENT_PORT_OFFSET = 1000;

    private final String id;
    private final int defaultPort;
    private final String database;
    private final boolean springBoot;

    Component(String id, int defaultPort, String database, boolean springBoot) {
        this.id = id;
        this.defaultPort = defaultPort;
        this.database = database;
        this.springBoot = springBoot;
    }

    /** The name used on the command line, in the control API and as the Maven module name. */
    public String id() {
        return id;
    }

    public int defaultPort() {
        return defaultPort;
    }

    /** Where a Spring Boot app serves actuator (probes, Prometheus); the others have no management port. */
    public int defaultManagementPort() {
        if (!hasManagementPort()) {
            throw new IllegalStateException(id + " has no management port");
        }
        return defaultPort + MANAGEMENT_PORT_OFFSET;
    }

    /** The service's own database, if it has one. */
    public Optional<String> database() {
        return Optional.ofNullable(database);
    }

    /** Whether it runs as a child JVM from {@code <repo>/<id>/target/<id>-<version>-exec.jar}. */
    public boolean isChildProcess() {
        return this != POSTGRES && this != KAFKA;
    }

    public boolean isSpringBootService() {
        return database != null;
    }

    /** A Spring Boot app (a service or the issuer): its actuator answers on a management port of its own. */
    public boolean hasManagementPort() {
        return springBoot;
    }

    public static List<Component> childProcesses() {
        return Arrays.stream(values()).filter(Component::isChildProcess).toList();
    }

    public static Optional<Component> fromId(String id) {
        return Arrays.stream(values()).filter(component -> component.id.equals(id)).findFirst();
    }

    @Override
    public String toString() {
        return id;
    }
}
