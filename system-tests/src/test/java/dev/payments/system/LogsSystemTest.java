package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.localstack.Component;
import dev.payments.testsupport.http.RawHttp;
import dev.payments.localstack.infra.EmbeddedPostgresServer;
import dev.payments.localstack.infra.ServiceDatabases;
import dev.payments.localstack.infra.KafkaCredentials;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static dev.payments.system.SystemStack.asMember;
import static dev.payments.system.SystemStack.call;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.hmac;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The logs of a run as an operator reads them (docs/operations.md, "Logs"): every line every Spring service and the
 * issuer wrote is one JSON object (ECS), a caller's newlines, quotes and fake JSON lines stay inside a line's message,
 * a refusal is one INFO line with its trace and span ids and no stack, and no token or secret the run used appears in
 * any log of the stack (the PG simulator's and PostgreSQL's included).
 */
class LogsSystemTest {

    private static final List<Component> SPRING = List.of(Component.AUTH_SERVER, Component.ORDER_SERVICE,
            Component.PAYMENT_SERVICE, Component.NOTIFICATION_SERVICE, Component.RECONCILIATION_SERVICE);
    private static final List<Component> LOGGING = List.of(Component.POSTGRES, Component.PG_SIMULATOR,
            Component.AUTH_SERVER, Component.ORDER_SERVICE, Component.PAYMENT_SERVICE, Component.NOTIFICATION_SERVICE,
            Component.RECONCILIATION_SERVICE);
    private static final String WEBHOOK_SECRET = "test_whsec_simulator";
    private static final String PG_KEY = "test_sk_simulator";
    private static final String FAKE_LINE = "{\"@timestamp\":\"2026-01-01T00:00:00Z\",\"log\":{\"level\":\"ERROR\","
            + "\"logger\":\"forged\"},\"message\":\"refund approved\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyLineIsOneJsonObjectAndNoTokenOrSecretIsLogged() throws IOException {
        String memberA = member();
        String order = createOrder(memberA, 5_000);
        String marker = UUID.randomUUID().toString();
        // A signed callback naming a payment key and an order that are none of ours: payment-service logs both.
        String key = marker + "\r\n" + FAKE_LINE + "\n\"";
        String callback = JSON.createObjectNode().put("eventType", "PAYMENT_STATUS_CHANGED")
                .set("data", JSON.createObjectNode().put("paymentKey", key).put("orderId", "o\n" + FAKE_LINE)).toString();
        long now = Instant.now().getEpochSecond();
        Map<String, String> signed = new LinkedHashMap<>();
        signed.put("X-PG-Timestamp", Long.toString(now));
        signed.put("X-PG-Signature", "v1=" + hmac(WEBHOOK_SECRET, now + "." + callback));
        SystemStack.Response acknowledged = call("POST", Component.PAYMENT_SERVICE, "/api/pg/webhooks", signed, callback);
        assertThat(acknowledged.status()).as(acknowledged.body().toString()).isEqualTo(200);
        // A refused form with a member's token, and a hostile path.
        long formsRefusedBefore = formsRefused(jsonLines(SystemStack.get().logFile(Component.ORDER_SERVICE))).size();
        String form = "a\u0001=\u0002&" + FAKE_LINE;
        RawHttp.Answer refused = RawHttp.send(SystemStack.get().portOf(Component.ORDER_SERVICE), "POST /api/orders?"
                + marker + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + asMember(memberA).get("Authorization")
                + "\r\nContent-Type: application/x-www-form-urlencoded\r\nConnection: close\r\nContent-Length: "
                + form.length() + "\r\n\r\n" + form);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(415);
        String hostilePath = "/api/orders/" + marker + "%0A%22%7D'";
        assertThat(call("GET", Component.ORDER_SERVICE, hostilePath, asMember(memberA), null).status()).isBetween(400, 499);
        assertThat(order).isNotBlank();

        Map<Component, List<JsonNode>> lines = new LinkedHashMap<>();
        await("payment-service logged the callback").atMost(Duration.ofSeconds(10)).until(() ->
                Files.readString(SystemStack.get().logFile(Component.PAYMENT_SERVICE)).contains(marker));
        for (Component component : SPRING) {
            lines.put(component, jsonLines(SystemStack.get().logFile(component)));
        }

        assertThat(messages(lines.get(Component.PAYMENT_SERVICE))).as("the callback's values, whole, inside one line")
                .anyMatch(message -> message.contains("payment key " + key + " / order o\n" + FAKE_LINE));
        List<JsonNode> refusals = formsRefused(lines.get(Component.ORDER_SERVICE));
        assertThat(refusals).as("the refused form: one line").hasSize((int) formsRefusedBefore + 1);
        JsonNode refusal = refusals.get(refusals.size() - 1);
        assertThat(refusal.path("log").path("level").asText()).isEqualTo("INFO");
        assertThat(refusal.has("error")).as("no stack trace").isFalse();
        assertThat(refusal.path("message").asText()).as("neither the query nor the body").doesNotContain(marker, "\u0001");
        assertThat(refusal.path("traceId").asText()).as("trace id").matches("[0-9a-f]{32}");
        assertThat(refusal.path("spanId").asText()).as("span id").matches("[0-9a-f]{16}");
        for (Component component : SPRING) {
            assertThat(lines.get(component)).as(component + ": no forged line")
                    .noneMatch(line -> "forged".equals(line.path("log").path("logger").asText()));
        }

        Map<String, String> secrets = secretsOfTheRun();
        for (Component component : LOGGING) {
            String log = Files.readString(SystemStack.get().logFile(component), StandardCharsets.UTF_8);
            secrets.forEach((what, secret) -> assertThat(log).as(component + "'s log holds " + what).doesNotContain(secret));
        }
    }

    /** Every line of a Spring component's log, parsed; the launcher's own start lines ("==== ...") excepted. */
    private static List<JsonNode> jsonLines(Path log) throws IOException {
        List<JsonNode> parsed = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.isEmpty() || line.startsWith("==== ")) {
                continue;
            }
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                throw new AssertionError(log + " has a line that is not JSON: " + line, e);
            }
            assertThat(node.isObject()).as(log + ": " + line).isTrue();
            parsed.add(node);
        }
        assertThat(parsed).as(log + " is empty").isNotEmpty();
        return parsed;
    }

    private static List<JsonNode> formsRefused(List<JsonNode> lines) {
        return lines.stream().filter(line -> line.path("message").asText().startsWith("Refused POST /api/orders: 415"))
                .toList();
    }

    private static List<String> messages(List<JsonNode> lines) {
        return lines.stream().map(line -> line.path("message").asText()).toList();
    }

    /** What the run authenticated with: every token the tests were handed, and the stack's passwords and secrets. */
    private static Map<String, String> secretsOfTheRun() {
        Map<String, String> secrets = new LinkedHashMap<>();
        Set<String> tokens = SystemStack.tokensHandedOut();
        assertThat(tokens).as("the run used tokens").isNotEmpty();
        int n = 0;
        for (String token : tokens) {
            secrets.put("access token #" + n++, token);
            // The signature alone is enough to replay nothing, but the claims and signature together are the token.
            secrets.put("the signature of access token #" + (n - 1), token.substring(token.lastIndexOf('.') + 1));
        }
        for (String database : List.of("orders", "payments", "notifications", "reconciliation")) {
            secrets.put("the database password of " + database, ServiceDatabases.passwordOf(database));
        }
        for (String principal : List.of("order-service", "payment-service", "notification-service",
                "reconciliation-service")) {
            secrets.put("the Kafka password of " + principal, KafkaCredentials.local(principal).password());
        }
        secrets.put("the PG's secret key", PG_KEY);
        secrets.put("the PG's key as Basic credentials",
                Base64.getEncoder().encodeToString((PG_KEY + ":").getBytes(StandardCharsets.UTF_8)));
        secrets.put("the webhook secret", WEBHOOK_SECRET);
        secrets.put("reconciliation's client secret", "local-reconciliation-secret");
        secrets.put("the local operator password", "local-operator-password");
        secrets.put("the local member password", "local-member-password");
        return secrets;
    }
}
