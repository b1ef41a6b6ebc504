package dev.payments.support.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.testapp.TestApplication;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A service built on service-support, over real HTTP: actuator answers on the management port and only there, and
 * the service refuses to start without a port of its own for actuator or without a required setting.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=8080", "management.server.port=9080",
                "settings.required.database=", "settings.required.kafka="})
class SettingsCheckIntegrationTest {

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @LocalServerPort
    int apiPort;

    @LocalManagementPort
    int managementPort;

    @Test
    void probesAnswerOnTheManagementPortAndTheApiPortServesOnlyTheApi() throws Exception {
        assertThat(managementPort).isNotEqualTo(apiPort);
        assertThat(get(managementPort, "/actuator/health/readiness").body().path("status").asText()).isEqualTo("UP");
        assertThat(get(managementPort, "/actuator/health/liveness").body().path("status").asText()).isEqualTo("UP");

        // Even a caller with a valid token finds no actuator on the API port (without one: 401, like any path).
        String token = AuthServer.shared().member("member-1");
        for (String path : new String[] {"/actuator/health", "/actuator/health/liveness", "/actuator/info",
                "/actuator/prometheus", "/actuator"}) {
            Reply reply = get(apiPort, path, token);
            assertThat(reply.status()).as(path).isEqualTo(404);
            assertThat(reply.contentType()).as(path).startsWith("application/problem+json");
            assertThat(reply.body().path("code").asText()).as(path + " " + reply.body()).isEqualTo("NOT_FOUND");
        }
        assertThat(get(apiPort, "/api/ping", token).body().path("pong").asText()).isEqualTo("yes");
    }

    @Test
    void aServiceWithoutAManagementPortOfItsOwnRefusesToStart(CapturedOutput output) {
        SpringApplicationBuilder sameAsApi = new SpringApplicationBuilder(TestApplication.class)
                .web(WebApplicationType.SERVLET);

        assertThatThrownBy(() -> sameAsApi.run("--server.port=0", "--spring.main.banner-mode=off",
                "--settings.required.database=", "--settings.required.issuer=", "--settings.required.kafka=").close())
                .isInstanceOfSatisfying(UnsafeSettingsException.class, e -> assertThat(e.problems())
                        .singleElement().asString().startsWith("management.server.port is not set"));
        assertThat(output).contains("APPLICATION FAILED TO START", "The service refuses to start with these settings",
                "  - management.server.port is not set");
    }

    @Test
    void aServiceWithoutItsSecretsRefusesToStartNamingEveryOne(CapturedOutput output) {
        SpringApplicationBuilder withoutSecrets = new SpringApplicationBuilder(TestApplication.class)
                .web(WebApplicationType.SERVLET);

        assertThatThrownBy(() -> withoutSecrets.run("--server.port=0", "--management.server.port=0",
                "--spring.main.banner-mode=off", "--settings.required.pg=pg.client.secret-key",
                "--settings.required.issuer=",
                "--spring.datasource.url=jdbc:postgresql://db:5432/payments", "--spring.datasource.password=").close())
                .isInstanceOfSatisfying(UnsafeSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "pg.client.secret-key is not set (environment: PG_CLIENT_SECRETKEY)",
                        "spring.datasource.password is not set (environment: SPRING_DATASOURCE_PASSWORD)",
                        "spring.datasource.username is not set (environment: SPRING_DATASOURCE_USERNAME)",
                        "spring.kafka.properties.sasl.jaas.config is not set"
                                + " (environment: SPRING_KAFKA_PROPERTIES_SASL_JAAS_CONFIG)"));
        assertThat(output).contains("  - pg.client.secret-key is not set", "--spring.profiles.active=local");
    }

    private Reply get(int port, String path) throws Exception {
        return get(port, path, null);
    }

    private Reply get(int port, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body().isBlank() ? json.nullNode() : json.readTree(response.body()));
    }

    private record Reply(int status, String contentType, JsonNode body) {
    }
}
