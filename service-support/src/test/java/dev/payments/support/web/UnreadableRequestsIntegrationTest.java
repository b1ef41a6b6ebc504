package dev.payments.support.web;

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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bodies an endpoint cannot read, sent through the real security chain (its firewall included) of a service built on
 * service-support: a form (the default of curl and many HTTP clients) of random bytes, whose parameters the firewall
 * refused while Spring MVC parsed them, which ended as a 500; multipart, plain text, a content type that does not
 * parse, JSON in a charset other than UTF-8; and a query parameter whose name has control characters (the firewall refuses it once MVC reads the parameters). Each is a 4xx problem+json
 * with a stable code, on the open endpoints and on one that needs a token alike.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=0", "management.server.port=0",
                "settings.required.database=", "settings.required.kafka="})
class UnreadableRequestsIntegrationTest {

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    /** Each refusal is one INFO line naming the endpoint and the code: no ERROR, no stack, none of the bytes. */
    @Test
    void aFormOfRandomBytesIsAnUnsupportedMediaTypeOnEveryEndpoint(CapturedOutput output) throws InterruptedException {
        Random random = new Random(31);
        for (String path : List.of("/api/hook", "/api/echo", "/api/notes")) {
            int before = output.getOut().length();
            for (int i = 0; i < 50; i++) {
                String body = randomBytes(random, 1 + random.nextInt(300));
                assertProblem(path + " with random form #" + i,
                        RawHttp.send(port, post(path, "application/x-www-form-urlencoded", body)), 415,
                        "UNSUPPORTED_MEDIA_TYPE");
            }
            String line = "Refused POST " + path + ": 415 UNSUPPORTED_MEDIA_TYPE";
            // The line is written once the answer has gone out, so the last one may trail the answer a little.
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (output.getOut().substring(before).lines().filter(l -> l.contains(line)).count() < 50
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            String logged = output.getOut().substring(before);
            assertThat(logged.lines().filter(l -> l.contains(line))).as(path + ": one line per refusal").hasSize(50);
            assertThat(logged.lines()).as(path + ": nothing else is logged").allMatch(l -> l.contains("Refused POST"));
            assertThat(logged).doesNotContain("ERROR", "Exception", "\tat ");
        }
    }

    @Test
    void bodiesInAnyOtherMediaTypeOrCharsetAreRefused() {
        Map<String, String> contentTypes = new LinkedHashMap<>();
        contentTypes.put("a form with control characters", "application/x-www-form-urlencoded");
        contentTypes.put("a form in a charset that does not exist", "application/x-www-form-urlencoded; charset=no-such");
        contentTypes.put("multipart", "multipart/form-data; boundary=xyz");
        contentTypes.put("multipart without a boundary", "multipart/form-data");
        contentTypes.put("plain text", "text/plain");
        contentTypes.put("a content type that does not parse", "%%%/;;=");
        contentTypes.put("JSON in UTF-16", "application/json; charset=UTF-16");
        contentTypes.put("JSON in a charset that does not exist", "application/json; charset=no-such-charset");
        String body = "%00=%0A&a\u0001=\u0002&--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\u0000\r\n";
        for (String path : List.of("/api/hook", "/api/echo", "/api/notes")) {
            contentTypes.forEach((what, contentType) -> assertProblem(path + " with " + what,
                    RawHttp.send(port, post(path, contentType, body)), 415, "UNSUPPORTED_MEDIA_TYPE"));
        }
    }

    @Test
    void aQueryParameterNamedWithControlCharactersIsMalformed() {
        for (String path : List.of("/api/find?q=a&%0A=x", "/api/find?%01=1&q=a", "/api/find?q=a&x%7F=1")) {
            assertProblem(path, RawHttp.send(port, "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + bearer()
                    + "Content-Type: application/json\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}"),
                    400, "MALFORMED_REQUEST");
        }
    }

    @Test
    void jsonInUtf8IsStillServed() {
        RawHttp.Answer answer = RawHttp.send(port, post("/api/echo", "application/json; charset=utf-8", "{\"text\":\"abc\"}"));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
    }

    private static String randomBytes(Random random, int length) {
        StringBuilder bytes = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            bytes.append((char) random.nextInt(256));
        }
        return bytes.toString();
    }

    private static String bearer() {
        return "Authorization: Bearer " + AuthServer.shared().member("member-1") + "\r\n";
    }

    /** {@code body} as ISO-8859-1, one byte per character, so any byte can be sent. */
    private static String post(String path, String contentType, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\n" + bearer() + "Content-Type: " + contentType
                + "\r\nConnection: close\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static void assertProblem(String what, RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(what + ": " + answer).isEqualTo(status);
        assertThat(answer.contentType()).as(what + ": " + answer).startsWith("application/problem+json");
        assertThat(answer.code()).as(what + ": " + answer).isEqualTo(code);
    }
}
