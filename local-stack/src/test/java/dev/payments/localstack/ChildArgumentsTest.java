package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildArgumentsTest {

    private static final Map<Component, Integer> PORTS = Map.of(
            Component.PG_SIMULATOR, 8090, Component.ORDER_SERVICE, 8081, Component.PAYMENT_SERVICE, 8082,
            Component.NOTIFICATION_SERVICE, 8083, Component.RECONCILIATION_SERVICE, 8084, Component.AUTH_SERVER, 9000,
            Component.OPERATOR_CONSOLE, 8095);

    @Test
    void everyServiceGetsItsPortDatabaseAndKafka() {
        assertThat(arguments(Component.NOTIFICATION_SERVICE, List.of())).containsExactly(
                "--server.port=8083",
                "--management.server.port=9083",
                "--spring.profiles.active=local",
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:15432/notifications",
                "--spring.datasource.username=notifications",
                "--spring.datasource.password=notifications-local",
                "--spring.kafka.bootstrap-servers=127.0.0.1:9092",
                "--spring.security.oauth2.resourceserver.jwt.issuer-uri=http://127.0.0.1:9000",
                "--spring.security.oauth2.resourceserver.jwt.audiences=payments-api");
    }

    @Test
    void reconciliationGetsItsOwnClientCredentialsAtTheLocalIssuer() {
        assertThat(arguments(Component.RECONCILIATION_SERVICE, List.of())).contains(
                "--spring.security.oauth2.client.provider.payments-issuer.token-uri=http://127.0.0.1:9000/oauth2/token",
                "--spring.security.oauth2.client.registration.payment-service.client-secret=local-reconciliation-secret");
    }

    @Test
    void paymentAndReconciliationKnowWhereThePgSimulatorAndPaymentServiceAre() {
        assertThat(arguments(Component.PAYMENT_SERVICE, List.of())).contains("--pg.client.base-url=http://127.0.0.1:8090");
        assertThat(arguments(Component.RECONCILIATION_SERVICE, List.of())).contains(
                "--spring.datasource.url=jdbc:postgresql://127.0.0.1:15432/reconciliation",
                "--reconciliation.payment-service-url=http://127.0.0.1:8082",
                "--reconciliation.pg-base-url=http://127.0.0.1:8090");
        assertThat(arguments(Component.PG_SIMULATOR, List.of())).containsExactly("--port=8090", "--admin-port=8091",
                "--callback-url=http://127.0.0.1:8082/api/pg/webhooks", "--journal=books.jsonl");
    }

    @Test
    void theIssuerRunsItsLocalProfileAndNamesItselfAsTheServicesExpect() {
        assertThat(arguments(Component.AUTH_SERVER, List.of())).containsExactly("--server.port=9000",
                "--management.server.port=10000", "--spring.profiles.active=local",
                "--spring.security.oauth2.authorizationserver.issuer=http://127.0.0.1:9000");
    }

    @Test
    void theConsoleSignsInAtTheLocalIssuerAndCallsTheServicesItShows() {
        assertThat(arguments(Component.OPERATOR_CONSOLE, List.of())).containsExactly("--server.port=8095",
                "--management.server.port=9095", "--spring.profiles.active=local",
                "--spring.security.oauth2.client.provider.payments.authorization-uri=http://127.0.0.1:9000/oauth2/authorize",
                "--spring.security.oauth2.client.provider.payments.token-uri=http://127.0.0.1:9000/oauth2/token",
                "--spring.security.oauth2.client.provider.payments.jwk-set-uri=http://127.0.0.1:9000/oauth2/jwks",
                "--spring.security.oauth2.client.provider.payments.user-name-attribute=sub",
                "--console.reconciliation-service-url=http://127.0.0.1:8084",
                "--console.payment-service-url=http://127.0.0.1:8082",
                "--console.notification-service-url=http://127.0.0.1:8083",
                "--console.order-service-url=http://127.0.0.1:8081");
    }

    @Test
    void anExtraPropertyReplacesTheGeneratedOneOfTheSameName() {
        List<String> arguments = arguments(Component.ORDER_SERVICE,
                List.of("--server.port=9999", "--debug", "--spring.profiles.active=local"));

        assertThat(arguments).contains("--server.port=9999", "--debug", "--spring.profiles.active=local")
                .doesNotContain("--server.port=8081");
    }

    private static List<String> arguments(Component component, List<String> extra) {
        return ChildArguments.of(component, PORTS::get, Component::defaultManagementPort, 8091,
                database -> "jdbc:postgresql://127.0.0.1:15432/" + database,
                "127.0.0.1:9092", extra);
    }
}
