package dev.payments.support.web;

import dev.payments.support.testapp.TestApplication;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP client Boot builds for a service (and the tests' {@link TestRestTemplate}) is the JDK's, even with Jetty's
 * client on the class path, as it is in every service through Debezium's Kafka Connect runtime. Jetty's client
 * aborts a request whose answer arrives before its body is sent, so a caller saw "Aborting request after receiving
 * a 401 response" instead of the 401 (seen under load in OrderServiceIntegrationTest and ReplayIntegrationTest).
 * Here the body is far larger than the socket buffers, so the refusal always comes first.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=0", "management.server.port=0",
                "settings.required.database=", "settings.required.kafka=", "api.limits.max-body-size=64MB"})
class BootsHttpClientIntegrationTest {

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @Autowired
    TestRestTemplate rest;

    @Test
    void aRefusalThatArrivesBeforeTheBodyIsSentReachesTheCallerAsItsStatus() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        String body = "{\"text\":\"" + "a".repeat(16 * 1024 * 1024) + "\"}";

        ResponseEntity<String> answer = rest.postForEntity("/api/notes", new HttpEntity<>(body, headers), String.class);

        assertThat(answer.getStatusCode().value()).as(answer.toString()).isEqualTo(401);
    }
}
