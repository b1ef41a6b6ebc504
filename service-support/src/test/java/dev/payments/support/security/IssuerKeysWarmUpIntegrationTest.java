package dev.payments.support.security;

import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.jwt.SupplierJwtDecoder;

import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The warm-up against a real issuer over HTTP, with the decoder Spring Boot builds from an issuer URI (lazy). */
class IssuerKeysWarmUpIntegrationTest {

    private final AuthServer issuer = AuthServer.shared();

    @Test
    void theFirstTokenAfterTheWarmUpCostsNoCallToTheIssuer() throws Exception {
        // Signed in before counting: only the decoder's own reads are counted.
        String token = issuer.member("member-warm");
        JwtDecoder decoder = bootsDecoder(issuer.url());
        int before = issuer.metadataReads();

        warmUp(decoder);
        int afterWarmUp = issuer.metadataReads();

        assertThat(afterWarmUp).as("discovery and JWKS read by the warm-up").isGreaterThanOrEqualTo(before + 2);
        assertThat(decoder.decode(token).getSubject()).isEqualTo("member-warm");
        assertThat(issuer.metadataReads()).as("reads for the first real token").isEqualTo(afterWarmUp);
    }

    @Test
    void anIssuerThatCannotBeReachedDoesNotStopTheStart() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        JwtDecoder decoder = bootsDecoder("http://127.0.0.1:" + closedPort);

        assertThatCode(() -> warmUp(decoder)).doesNotThrowAnyException();
    }

    /** As the context does: the fetch starts once every bean exists, the runner waits for it before readiness. */
    private static void warmUp(JwtDecoder decoder) throws InterruptedException {
        IssuerKeysWarmUp warmUp = new IssuerKeysWarmUp(() -> decoder);
        warmUp.afterSingletonsInstantiated();
        warmUp.run(null);
    }

    /** As Spring Boot 3.5 builds it from {@code issuer-uri}: nothing is fetched until the first token. */
    private static JwtDecoder bootsDecoder(String issuerUri) {
        return new SupplierJwtDecoder(() -> NimbusJwtDecoder.withIssuerLocation(issuerUri).build());
    }
}
