package dev.payments.localstack.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class SignInTest {

    @Test
    void anEndpointUnderAnIssuerNameTheHostCannotResolveIsTakenWhereDiscoveryWasReached() {
        SignIn signIn = new SignIn(URI.create("http://127.0.0.1:9000"));

        assertThat(signIn.reachedAt(URI.create("http://auth-server:9000/oauth2/token")))
                .isEqualTo(URI.create("http://127.0.0.1:9000/oauth2/token"));
        assertThat(signIn.reachedAt(URI.create("http://auth-server:9000/oauth2/authorize?x=1")))
                .isEqualTo(URI.create("http://127.0.0.1:9000/oauth2/authorize?x=1"));
    }

    @Test
    void anEndpointAtTheAddressTheClientUsesIsKept() {
        SignIn signIn = new SignIn(URI.create("http://127.0.0.1:9000"));

        assertThat(signIn.reachedAt(URI.create("http://127.0.0.1:9000/oauth2/token")))
                .isEqualTo(URI.create("http://127.0.0.1:9000/oauth2/token"));
    }
}
