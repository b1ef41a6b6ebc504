package dev.payments.support.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.testapp.TestApplication;
import dev.payments.testsupport.http.RawHttp;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller's value cannot forge or split a log line: with the services' one log format (ECS JSON, set by
 * ServiceDefaults), a header, a body and a path carrying newlines, quotes and a whole fake JSON log line each land
 * inside one line's {@code message}, exactly as sent, and every line the service writes is one JSON object.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=0", "management.server.port=0",
                "settings.required.database=", "settings.required.kafka="})
class StructuredLogsIntegrationTest {

    private static final String FAKE_LINE = "{\"@timestamp\":\"2026-01-01T00:00:00Z\",\"log\":{\"level\":\"ERROR\","
            + "\"logger\":\"dev.payments.payment.Forged\"},\"message\":\"refund 1000000 approved\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    @Test
    void aHostileHeaderBodyOrPathStaysInsideOneLine(CapturedOutput output) throws InterruptedException {
        int before = output.getOut().length();
        String caller = "pg\" , \"log\":{\"level\":\"ERROR\"}, \"x\":\"" + FAKE_LINE;
        String body = "ok\r\n" + FAKE_LINE + "\n\u2028" + FAKE_LINE + "\"\\";
        byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        RawHttp.Answer hook = RawHttp.send(port, "POST /api/hook HTTP/1.1\r\nHost: x\r\nX-Caller: " + caller
                + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + bodyBytes.length
                + "\r\n\r\n" + new String(bodyBytes, StandardCharsets.ISO_8859_1));
        assertThat(hook.status()).as(hook.toString()).isEqualTo(200);
        String path = "/api/x%0D%0A%7B%22log%22:%7B%22level%22:%22ERROR%22%7D%7D/'";
        RawHttp.Answer refused = RawHttp.send(port, "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(refused.status()).as(refused.toString()).isBetween(400, 499);

        List<JsonNode> lines = awaitLines(output, before, "Refused GET");
        assertThat(lines).extracting(line -> line.path("message").asText())
                .contains("Hook called by " + caller + ": " + body);
        assertThat(lines).extracting(line -> line.path("message").asText())
                .anyMatch(message -> message.startsWith("Refused GET " + path + ": 4"));
        assertThat(lines).as("no line is the forged one").noneMatch(line -> line.path("log").path("level").asText().equals("ERROR"));
    }

    /** Every line written since {@code from}, each parsed as one JSON object, once a line containing {@code last} is in. */
    private static List<JsonNode> awaitLines(CapturedOutput output, int from, String last) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!output.getOut().substring(from).contains(last) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : output.getOut().substring(from).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonNode parsed;
            try {
                parsed = JSON.readTree(line);
            } catch (Exception e) {
                throw new AssertionError("a log line that is not JSON: " + line, e);
            }
            assertThat(parsed.isObject()).as(line).isTrue();
            lines.add(parsed);
        }
        return lines;
    }
}
