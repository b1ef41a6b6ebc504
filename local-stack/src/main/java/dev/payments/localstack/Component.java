package dev.payments.localstack;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What the local stack runs. Infrastructure lives in the launcher's JVM (PostgreSQL as its own processes); the rest each in a JVM of its own. */
public enum Component {

    POSTGRES("postgres", 15432, null),
    KAFKA("kafka", 9092, null),
    PG_SIMULATOR("pg-simulator", 8090, null),
    /** The token issuer (Spring Authorization Server): members, operators and services get their tokens here. */
    AUTH_SERVER("auth-server", 9000, null),
    ORDER_SERVICE("order-service", 8081, "orders"),
    PAYMENT_SERVICE("payment-service", 8082, "payments"),
    NOTIFICATION_SERVICE("notification-service", 8083, "notifications"),
    RECONCILIATION_SERVICE("reconciliation-service", 8084, "reconciliation");

    private final String id;
    private final int defaultPort;
    private final String database;

    Component(String id, int defaultPort, String database) {
        this.id = id;
        this.defaultPort = defaultPort;
        this.database = database;
    }

    /** The name used on the command line, in the control API and as the Maven module name. */
    public String id() {
        return id;
    }

    public int defaultPort() {
        return defaultPort;
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
