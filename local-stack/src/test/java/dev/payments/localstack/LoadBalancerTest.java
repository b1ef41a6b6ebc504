package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoadBalancerTest {

    @Test
    void eachReplicatedServiceIsOneFrontendOnItsPortRoundRobinOverHealthCheckedReplicas() {
        Map<String, Integer> replicas = new LinkedHashMap<>();
        replicas.put("payment-service-1", 41001);
        replicas.put("payment-service-2", 41002);

        Map<String, Integer> management = Map.of("payment-service-1", 42001, "payment-service-2", 42002);

        String cfg = LoadBalancer.configuration(List.of(new LoadBalancer.Frontend(Component.PAYMENT_SERVICE, 8082, replicas,
                management)), Path.of("/tmp/run/load-balancer.sock"), Path.of("/tmp/run/load-balancer-errors"));

        assertThat(cfg).contains("stats socket /tmp/run/load-balancer.sock level user\n");
        assertThat(cfg).contains("frontend payment-service\n    bind 127.0.0.1:8082\n    default_backend payment-service\n");
        assertThat(cfg).contains("balance roundrobin", "option httpchk GET /actuator/health/readiness",
                "server payment-service-1 127.0.0.1:41001 check port 42001\n",
                "server payment-service-2 127.0.0.1:41002 check port 42002\n");
        // Only a refused connection is retried elsewhere: a POST that reached a replica is never sent twice.
        assertThat(cfg).contains("retry-on conn-failure").doesNotContain("retry-on all");
        assertThat(cfg).containsPattern("timeout server (9\\d|\\d{3,})s");
        // Its own refusals are problem+json: one errorfile per status it answers itself.
        assertThat(cfg).contains("errorfile 400 /tmp/run/load-balancer-errors/400.http\n",
                "errorfile 503 /tmp/run/load-balancer-errors/503.http\n", "errorfile 504 /tmp/run/load-balancer-errors/504.http\n");
    }
}
