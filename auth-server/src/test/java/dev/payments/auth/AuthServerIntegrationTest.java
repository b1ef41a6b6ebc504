package dev.payments.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.localstack.identity.SignIn;
import dev.payments.localstack.identity.Tokens;
import dev.payments.localstack.infra.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The issuer as the local stack runs it (local profile), driven like the token command and the services drive it. */
class AuthServerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path directory;

    @Test
    void membersOperatorsAndServicesGetTokensForThePaymentsApiWithTheirRolesScopes() throws Exception {
        int port = FreePorts.pick();
        try (ConfigurableApplicationContext ignored = start(port, directory.resolve("keys.json"))) {
            URI issuer = URI.create("http://127.0.0.1:" + port);
            SignIn signIn = new SignIn(issuer);

            JsonNode member = claims(signIn.token("member-a1", "local-member-password", Tokens.Role.MEMBER.scopes()).value());
            assertThat(member.path("sub").asText()).isEqualTo("member-a1");
            assertThat(member.path("iss").asText()).isEqualTo(issuer.toString());
            assertThat(member.path("aud").toString()).isIn("\"payments-api\"", "[\"payments-api\"]");
            assertThat(member.path("scope").toString()).contains("member").doesNotContain("payments:sync");

            JsonNode operator = claims(signIn.token("operator-1", "local-operator-password", Tokens.Role.OPERATOR.scopes()).value());
            assertThat(operator.path("sub").asText()).isEqualTo("operator-1");
            assertThat(operator.path("scope").toString()).contains("payments:sync", "incidents:write", "events:replay")
                    .doesNotContain("\"member\"");

            JsonNode service = claims(clientCredentials(issuer, "reconciliation-service:local-reconciliation-secret",
                    "payments:sync").path("access_token").asText());
            assertThat(service.path("sub").asText()).isEqualTo("reconciliation-service");
            assertThat(service.path("aud").toString()).isIn("\"payments-api\"", "[\"payments-api\"]");
            assertThat(service.path("scope").toString()).contains("payments:sync");
        }
    }

    @Test
    void membersSigningInAtTheSameTimeAllGetTheirTokens() throws Exception {
        int port = FreePorts.pick();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(8);
        try (ConfigurableApplicationContext ignored = start(port, directory.resolve("keys.json"))) {
            SignIn signIn = new SignIn(URI.create("http://127.0.0.1:" + port));
            List<java.util.concurrent.Future<String>> subjects = new java.util.ArrayList<>();
            for (int i = 0; i < 48; i++) {
                String member = "member-c" + i;
                subjects.add(threads.submit(() -> claims(signIn.token(member, "local-member-password",
                        Tokens.Role.MEMBER.scopes()).value()).path("sub").asText()));
            }
            for (int i = 0; i < subjects.size(); i++) {
                assertThat(subjects.get(i).get()).isEqualTo("member-c" + i);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aUserIsNeverGrantedAScopeOfAnotherRoleNorSignedInWithAWrongPassword() {
        int port = FreePorts.pick();
        try (ConfigurableApplicationContext ignored = start(port, directory.resolve("keys.json"))) {
            SignIn signIn = new SignIn(URI.create("http://127.0.0.1:" + port));

            assertThatThrownBy(() -> signIn.token("member-a1", "local-member-password", List.of("openid", "member", "payments:sync")))
                    .isInstanceOf(SignIn.SignInException.class).hasMessageContaining("invalid_scope");
            assertThatThrownBy(() -> signIn.token("operator-1", "local-operator-password", List.of("openid", "member")))
                    .isInstanceOf(SignIn.SignInException.class).hasMessageContaining("invalid_scope");
            assertThatThrownBy(() -> signIn.token("member-a1", "not-the-password", List.of("openid", "member")))
                    .isInstanceOf(SignIn.SignInException.class).hasMessageContaining("refused the sign-in");
            assertThatThrownBy(() -> signIn.token("somebody", "local-member-password", List.of("openid", "member")))
                    .as("only names of the self-sign-up pattern sign up").isInstanceOf(SignIn.SignInException.class);
        }
    }

    @Test
    void theSigningKeyOutlivesARestartSoTokensStayValid() throws Exception {
        Path keys = directory.resolve("keys.json");
        String before;
        int port = FreePorts.pick();
        try (ConfigurableApplicationContext ignored = start(port, keys)) {
            before = jwks(port);
        }
        assertThat(keys).exists();
        port = FreePorts.pick();
        try (ConfigurableApplicationContext ignored = start(port, keys)) {
            assertThat(jwks(port)).isEqualTo(before);
        }
    }

    @Test
    void outsideTheLocalProfileAMissingSigningKeyStopsStartUpNamingTheProperty() {
        Path missing = directory.resolve("absent.json");
        assertThatThrownBy(() -> new SpringApplicationBuilder(AuthServerApplication.class).run(
                "--server.port=" + FreePorts.pick(), "--management.server.port=0", "--auth.signing-key.location=" + missing,
                "--spring.security.oauth2.authorizationserver.issuer=http://127.0.0.1:1"))
                .hasStackTraceContaining("auth.signing-key.location");
        assertThat(missing).doesNotExist();
    }

    private static ConfigurableApplicationContext start(int port, Path keys) {
        return new SpringApplicationBuilder(AuthServerApplication.class).run("--server.port=" + port,
                "--management.server.port=0", "--spring.profiles.active=local", "--auth.signing-key.location=" + keys);
    }

    private String jwks(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/oauth2/jwks")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private JsonNode clientCredentials(URI issuer, String credentials, String scope) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(issuer.resolve("/oauth2/token"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&scope=" + scope)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static JsonNode claims(String jwt) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }
}
