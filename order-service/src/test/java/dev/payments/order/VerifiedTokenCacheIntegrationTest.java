package dev.payments.order;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.MovableClock;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A member's token verified once, not on every request: over real HTTP, with tokens signed by the test
 * issuer and verified against its JWKS, the cache seen through the service's own metrics on the management port.
 * Its own context, because it moves the service's clock past a token's expiry.
 */
@ActiveProfiles("local")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureObservability(tracing = false)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class VerifiedTokenCacheIntegrationTest {

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        AuthServer issuer = AuthServer.shared(); // starts while PostgreSQL and Kafka start
        SharedTestInfrastructure.springProperties("orders_token_cache", KafkaAccess.Service.ORDER)
                .forEach((name, value) -> registry.add(name, () -> value));
        issuer.springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @TestConfiguration
    static class Time {
        @Bean
        @Primary
        MovableClock movableClock() {
            return MovableClock.ticking();
        }
    }

    @Autowired
    TestRestTemplate http;

    @Autowired
    MovableClock clock;

    @LocalManagementPort
    int managementPort;

    @Test
    void aReusedTokenIsVerifiedOnceAndAnExpiredOneIsRefusedThoughItWasCached() throws Exception {
        // A token of its own (a member no other test signs in as): no request before this one has presented it.
        String token = AuthServer.shared().member("member-token-cache");
        String unknownOrder = "/api/orders/" + UUID.randomUUID();
        double hits = cacheGets("hit");
        double misses = cacheGets("miss");

        assertCode(get(unknownOrder, token), 404, "ORDER_NOT_FOUND");
        assertCode(get(unknownOrder, token), 404, "ORDER_NOT_FOUND");

        assertThat(cacheGets("miss") - misses).as("verified (signature, issuer, audience) once").isEqualTo(1);
        assertThat(cacheGets("hit") - hits).as("and taken from the cache the second time").isEqualTo(1);

        // The token's thirty minutes (auth-server's access-token-ttl) and the 60 s clock skew are over on the
        // service's clock; it is still cached.
        clock.advance(Duration.ofMinutes(32));
        try {
            assertCode(get(unknownOrder, token), 401, "INVALID_TOKEN");
        } finally {
            clock.reset();
        }
        assertThat(cacheGets("hit") - hits).as("refused on a hit, not after a second verification").isEqualTo(2);
        assertThat(cacheGets("miss") - misses).isEqualTo(1);

        // A token changed in one character of its signature is never a hit, and is refused.
        int middle = token.lastIndexOf('.') + (token.length() - token.lastIndexOf('.')) / 2;
        String tampered = token.substring(0, middle) + (token.charAt(middle) == 'A' ? 'B' : 'A')
                + token.substring(middle + 1);
        assertCode(get(unknownOrder, tampered), 401, "INVALID_TOKEN");
        assertThat(cacheGets("hit") - hits).isEqualTo(2);
    }

    private ResponseEntity<String> get(String path, String bearer) {
        HttpHeaders headers = new HttpHeaders();
        headers.setBearerAuth(bearer);
        return http.exchange(path, HttpMethod.GET, new HttpEntity<>(headers), String.class);
    }

    private static void assertCode(ResponseEntity<String> response, int status, String code) throws Exception {
        assertThat(response.getStatusCode().value()).as(response.getBody()).isEqualTo(status);
        assertThat(new ObjectMapper().readTree(response.getBody()).path("code").asText()).isEqualTo(code);
    }

    /** {@code cache_gets_total} of the verified-token cache from the service's Prometheus endpoint. */
    private double cacheGets(String result) {
        String scrape = http.getForObject("http://127.0.0.1:" + managementPort + "/actuator/prometheus", String.class);
        Matcher gets = Pattern.compile("(?m)^cache_gets_total\\{[^}]*cache=\"verified-tokens\"[^}]*result=\"" + result
                + "\"[^}]*} (\\S+)$").matcher(scrape);
        assertThat(gets.find()).as("cache_gets_total{cache=\"verified-tokens\",result=\"%s\"} on the actuator among %s",
                result, scrape.lines().filter(line -> line.startsWith("cache_")).toList()).isTrue();
        return Double.parseDouble(gets.group(1));
    }
}
