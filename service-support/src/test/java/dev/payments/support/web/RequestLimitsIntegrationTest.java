package dev.payments.support.web;

import dev.payments.support.testapp.TestApplication;
import dev.payments.testsupport.http.RawHttp;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile requests against a service built on service-support, written on a raw socket so the test controls what
 * goes on the wire: a declared 200 MB body, a chunked body that never ends, JSON too deep, a NUL in the path. Each is
 * answered with a 4xx problem+json with a stable code, and an oversized body is refused without being read: the
 * answer arrives while the client is still sending, after far less than the body (a 200 MB callback would
 * otherwise be read whole, and a streamed one read until the client stopped).
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=0", "management.server.port=0", "settings.required.database=",
                "settings.required.kafka=",
                "api.limits.max-body-size=64KB"})
class RequestLimitsIntegrationTest {

    private static final long TWO_HUNDRED_MB = 200L * 1024 * 1024;

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    @Test
    void aDeclaredTwoHundredMegabyteBodyIsRefusedBeforeItIsRead() {
        for (String path : new String[] {"/api/hook", "/api/echo"}) {
            RawHttp.Answer answer = RawHttp.send(port, "POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + TWO_HUNDRED_MB + "\r\n\r\n", TWO_HUNDRED_MB, false);

            assertProblem(path, answer, 413, "PAYLOAD_TOO_LARGE");
            assertThat(answer.bodyBytesSent()).as(path + ": answered while the body was still coming")
                    .isLessThan(TWO_HUNDRED_MB / 10);
        }
    }

    @Test
    void aStreamedBodyWithoutLengthIsCutOffAtTheLimit() {
        for (String path : new String[] {"/api/hook", "/api/echo"}) {
            RawHttp.Answer answer = RawHttp.send(port, "POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", TWO_HUNDRED_MB, true);

            assertProblem(path, answer, 413, "PAYLOAD_TOO_LARGE");
            assertThat(answer.bodyBytesSent()).as(path + ": answered while the body was still coming")
                    .isLessThan(TWO_HUNDRED_MB / 10);
        }
    }

    @Test
    void aBodyWithinTheLimitIsServed() {
        RawHttp.Answer answer = RawHttp.send(port, post("/api/echo", "{\"text\":\"" + "a".repeat(60_000) + "\"}"));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().path("length").asInt()).isEqualTo(60_000);
    }

    @Test
    void jsonTooDeepOrWithAnOverlongNumberIsMalformed() {
        String deep = "{\"a\":" + "[".repeat(200) + "]".repeat(200) + "}";
        String longNumber = "{\"a\":" + "9".repeat(2_000) + "}";
        for (String body : new String[] {deep, longNumber}) {
            assertProblem(body.substring(0, 12), RawHttp.send(port, post("/api/echo", body)), 400, "MALFORMED_REQUEST");
        }
    }

    /** Tomcat's own status is kept: it answers a request line or headers over the limit with 400. */
    @Test
    void whatTheContainerRefusesBeforeSpringSeesItIsProblemJsonToo() {
        assertProblem("encoded NUL in the path", RawHttp.send(port, get("/api/ping%00")), 400, "MALFORMED_REQUEST");
        assertProblem("encoded slash in the path", RawHttp.send(port, get("/api/ping%2F..%2Fx")), 400, "MALFORMED_REQUEST");
        assertProblem("a header over the limit", RawHttp.send(port, "GET /api/ping HTTP/1.1\r\nHost: x\r\nX-Big: "
                + "b".repeat(20_000) + "\r\nConnection: close\r\n\r\n"), 400, "MALFORMED_REQUEST");
        assertProblem("a URL over the limit", RawHttp.send(port, get("/api/ping?q=" + "u".repeat(20_000))),
                400, "MALFORMED_REQUEST");
        assertProblem("a path parameter the firewall refuses", RawHttp.send(port, get("/api/ping;x=1")),
                400, "MALFORMED_REQUEST");
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    }

    private static String post(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static void assertProblem(String what, RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(what + ": " + answer).isEqualTo(status);
        assertThat(answer.contentType()).as(what + ": " + answer).startsWith("application/problem+json");
        assertThat(answer.code()).as(what + ": " + answer).isEqualTo(code);
        // Even Tomcat's own refusal points to the code's page, like every other problem.
        assertThat(answer.json().path("type").asText()).as(what + ": " + answer)
                .isEqualTo(Problems.type(code).toString());
    }
}
