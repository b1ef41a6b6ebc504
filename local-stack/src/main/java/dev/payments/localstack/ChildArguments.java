package dev.payments.localstack;

import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.ServiceDatabases;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** The application arguments each child gets: standard Spring Boot command-line properties for the services. */
final class ChildArguments {

    /** The audience auth-server writes into every access token (its {@code auth.audience}). */
    static final String AUDIENCE = "payments-api";
    /** auth-server's application-local.yml: a committed credential of the local profile, nothing else. */
    static final String LOCAL_RECONCILIATION_SECRET = "local-reconciliation-secret";
    /** Relative to the simulator's working directory, {@code <data dir>/work/pg-simulator}. */
    static final String PG_BOOKS = "books.jsonl";

    private ChildArguments() {
    }

    /**
     * @param portOf the port each component listens on
     * @param managementPortOf the actuator port of each Spring Boot app
     * @param pgSimulatorAdminPort the simulator's admin API port
     * @param jdbcUrlOf the JDBC URL of a database by name
     */
    static List<String> of(Component component, Function<Component, Integer> portOf,
                           Function<Component, Integer> managementPortOf, int pgSimulatorAdminPort,
                           Function<String, String> jdbcUrlOf, String bootstrapServers, List<String> extra) {
        return of(component, component.id(), portOf.apply(component),
                component.hasManagementPort() ? managementPortOf.apply(component) : 0, portOf, pgSimulatorAdminPort,
                jdbcUrlOf, bootstrapServers, extra);
    }

    /**
     * One replica's arguments: it listens on {@code ownPort}; every other component, and its own service as the
     * others call it, is reached on {@code portOf} (the load balancer's port for a replicated service).
     *
     * @param name the replica's name, which it gives its scheduled-job locks so an operator can see who holds one
     * @param ownManagementPort the replica's own actuator port (actuator is per process, never balanced)
     */
    static List<String> of(Component component, String name, int ownPort, int ownManagementPort,
                           Function<Component, Integer> portOf,
                           int pgSimulatorAdminPort, Function<String, String> jdbcUrlOf, String bootstrapServers,
                           List<String> extra) {
        List<String> arguments = new ArrayList<>();
        if (component == Component.PG_SIMULATOR) {
            // pg-simulator's own picocli options, not Spring properties.
            arguments.add("--port=" + portOf.apply(component));
            arguments.add("--admin-port=" + pgSimulatorAdminPort);
            // Asynchronous results (field report 001) go to payment-service's signed webhook.
            arguments.add("--callback-url=" + httpUrl(portOf.apply(Component.PAYMENT_SERVICE)) + "/api/pg/webhooks");
            // The PG's books in its working directory: kept across restarts like the databases, gone with --clean,
            // so the ledger audit compares books of the same age (docs/pg-simulator.md, "Books across restarts").
            arguments.add("--journal=" + PG_BOOKS);
        } else if (component == Component.AUTH_SERVER) {
            arguments.add("--server.port=" + ownPort);
            arguments.add("--management.server.port=" + ownManagementPort);
            // The local profile: committed users and client secrets, a signing key generated once in the working
            // directory (kept across restarts, gone with --clean).
            arguments.add("--spring.profiles.active=local");
            arguments.add("--spring.security.oauth2.authorizationserver.issuer=" + issuerUrl(portOf));
        } else if (component == Component.OPERATOR_CONSOLE) {
            arguments.add("--server.port=" + ownPort);
            arguments.add("--management.server.port=" + ownManagementPort);
            // The local profile: the console's client secret at the local issuer, nothing else.
            arguments.add("--spring.profiles.active=local");
            // The issuer's endpoints named, not discovered: the console starts beside the issuer, not after it.
            String issuer = issuerUrl(portOf);
            String provider = "--spring.security.oauth2.client.provider.payments.";
            arguments.add(provider + "authorization-uri=" + issuer + "/oauth2/authorize");
            arguments.add(provider + "token-uri=" + issuer + "/oauth2/token");
            arguments.add(provider + "jwk-set-uri=" + issuer + "/oauth2/jwks");
            arguments.add(provider + "user-name-attribute=sub");
            arguments.add("--console.reconciliation-service-url=" + httpUrl(portOf.apply(Component.RECONCILIATION_SERVICE)));
            arguments.add("--console.payment-service-url=" + httpUrl(portOf.apply(Component.PAYMENT_SERVICE)));
            arguments.add("--console.notification-service-url=" + httpUrl(portOf.apply(Component.NOTIFICATION_SERVICE)));
            arguments.add("--console.order-service-url=" + httpUrl(portOf.apply(Component.ORDER_SERVICE)));
        } else {
            String database = component.database().orElseThrow();
            arguments.add("--server.port=" + ownPort);
            arguments.add("--management.server.port=" + ownManagementPort);
            if (!name.equals(component.id())) {
                arguments.add("--scheduling.replica-name=" + name);
            }
            // The local profile: the simulator's secrets (application-local.yml); nothing else has any.
            arguments.add("--spring.profiles.active=local");
            arguments.add("--spring.datasource.url=" + jdbcUrlOf.apply(database));
            // The service's own role, owning only its database (ServiceDatabases.create).
            arguments.add("--spring.datasource.username=" + database);
            arguments.add("--spring.datasource.password=" + ServiceDatabases.passwordOf(database));
            arguments.add("--spring.kafka.bootstrap-servers=" + bootstrapServers);
            // Every API is a resource server of the local issuer (service-support's shared chain).
            arguments.add("--spring.security.oauth2.resourceserver.jwt.issuer-uri=" + issuerUrl(portOf));
            arguments.add("--spring.security.oauth2.resourceserver.jwt.audiences=" + AUDIENCE);
            String pgSimulator = httpUrl(portOf.apply(Component.PG_SIMULATOR));
            switch (component) {
                case PAYMENT_SERVICE -> arguments.add("--pg.client.base-url=" + pgSimulator);
                case RECONCILIATION_SERVICE -> {
                    arguments.add("--reconciliation.payment-service-url=" + httpUrl(portOf.apply(Component.PAYMENT_SERVICE)));
                    arguments.add("--reconciliation.pg-base-url=" + pgSimulator);
                    // Its own client-credentials token for payment-service's sync; the secret is the local profile's.
                    arguments.add("--spring.security.oauth2.client.provider.payments-issuer.token-uri="
                            + issuerUrl(portOf) + "/oauth2/token");
                    arguments.add("--spring.security.oauth2.client.registration.payment-service.client-secret="
                            + LOCAL_RECONCILIATION_SECRET);
                }
                default -> {
                }
            }
        }
        // Spring Boot joins repeated command-line properties with commas instead of letting one win,
        // so an operator's --name=value replaces the generated one.
        for (String argument : extra) {
            optionName(argument).ifPresent(option -> arguments.removeIf(generated -> optionName(generated).equals(Optional.of(option))));
            arguments.add(argument);
        }
        return arguments;
    }

    private static Optional<String> optionName(String argument) {
        int equals = argument.indexOf('=');
        return argument.startsWith("--") && equals > 2 ? Optional.of(argument.substring(0, equals)) : Optional.empty();
    }

    /** The {@code iss} of every token, exactly as the resource servers expect it. */
    static String issuerUrl(Function<Component, Integer> portOf) {
        return httpUrl(portOf.apply(Component.AUTH_SERVER));
    }

    static String httpUrl(int port) {
        return "http://127.0.0.1:" + port;
    }
}
