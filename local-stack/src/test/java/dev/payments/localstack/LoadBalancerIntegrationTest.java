package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.payments.localstack.infra.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real HAProxy (Debian's, local-stack/install-haproxy.sh) answering by itself, with no replica up. */
class LoadBalancerIntegrationTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void itsOwnRefusalsAreProblemJsonLikeTheServices(@TempDir Path run) throws Exception {
        assumeTrue(LoadBalancer.executable().isPresent(), "HAProxy is installed by .ci/run (local-stack/install-haproxy.sh)");
        int port = FreePorts.pick();
        int deadReplica = FreePorts.pick();
        while (deadReplica == port) {
            deadReplica = FreePorts.pick();
        }
        try (LoadBalancer balancer = new LoadBalancer(List.of(new LoadBalancer.Frontend(Component.PAYMENT_SERVICE, port,
                Map.of("payment-service-1", deadReplica), Map.of("payment-service-1", deadReplica))), run,
                run.resolve("load-balancer.log"))) {
            balancer.start();

            HttpResponse<String> noReplica = get("http://127.0.0.1:" + port + "/api/payments/x");
            assertThat(noReplica.statusCode()).isEqualTo(503);
            assertThat(noReplica.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(noReplica.body()).contains("\"code\":\"SERVICE_UNAVAILABLE\"", "\"status\":503");

            // A 70 KB URL is not refused as HTML by the balancer: it goes on (here to no replica: 503 problem+json).
            HttpResponse<String> longUrl = get("http://127.0.0.1:" + port + "/api/payments/x?q=" + "a".repeat(70 * 1024));
            assertThat(longUrl.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(longUrl.body()).contains("\"code\":\"");
        }
    }

    private HttpResponse<String> get(String uri) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
