package dev.payments.reconciliation.support;

import dev.payments.testsupport.identity.AuthServer;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Tokens in reconciliation's integration tests: the service trusts the shared auth-server, gets its own
 * client-credentials token for payment-service from it (the local profile's client), and the tests call as an
 * operator with every reconciliation scope.
 */
public final class Security {

    public static final String CLIENT_ID = AuthServer.RECONCILIATION_CLIENT_ID;
    /** A request with this header goes without any token (the header itself is not sent). */
    public static final String ANONYMOUS = "X-Test-Anonymous";
    /** A request with this header goes with the token it names instead of the operator's. */
    public static final String AS = "X-Test-Bearer";

    private Security() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        AuthServer issuer = AuthServer.shared();
        issuer.springProperties().forEach((name, value) -> registry.add(name, () -> value));
        registry.add("spring.security.oauth2.client.provider.payments-issuer.token-uri", () -> issuer.url() + "/oauth2/token");
        registry.add("spring.security.oauth2.client.registration.payment-service.client-secret", () -> AuthServer.RECONCILIATION_CLIENT_SECRET);
    }

    /** operator-1 with every operator scope. */
    public static String operatorToken() {
        return AuthServer.shared().operator("operator-1", "reconciliation:read", "ledger:audit", "ledger:export",
                "settlements:run",
                "incidents:write", "events:replay", "dead-letters:read", "dead-letters:write");
    }

    /** From now on this client calls as operator-1, unless a request says otherwise ({@link #ANONYMOUS}, {@link #AS}). */
    public static void asOperator(TestRestTemplate http) {
        if (http.getRestTemplate().getInterceptors().stream().anyMatch(OperatorBearer.class::isInstance)) {
            return;
        }
        http.getRestTemplate().getInterceptors().add(new OperatorBearer());
    }

    private static final class OperatorBearer implements ClientHttpRequestInterceptor {
        @Override
        public org.springframework.http.client.ClientHttpResponse intercept(org.springframework.http.HttpRequest request,
                byte[] body, org.springframework.http.client.ClientHttpRequestExecution execution) throws java.io.IOException {
            HttpHeaders headers = request.getHeaders();
            if (headers.remove(ANONYMOUS) == null && !headers.containsKey(HttpHeaders.AUTHORIZATION)) {
                java.util.List<String> as = headers.remove(AS);
                headers.setBearerAuth(as == null || as.isEmpty() ? operatorToken() : as.get(0));
            }
            return execution.execute(request, body);
        }
    }
}
