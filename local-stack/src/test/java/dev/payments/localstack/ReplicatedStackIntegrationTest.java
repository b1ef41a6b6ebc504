package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several replicas of a service behind the launcher's HAProxy (Debian's package; {@code local-stack/install-haproxy.sh}
 * installs it, and {@code .ci/run} calls that), with {@link FakeService} jars in place of the services.
 */
class ReplicatedStackIntegrationTest {

    private static final List<String> SMALL_JVM = List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    Path root;

    @Test
    void theServicePortSpreadsRequestsOverItsReplicasAndKeepsAnsweringWhenOneIsKilled() throws Exception {
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")), Component.PAYMENT_SERVICE);
        LocalStackOptions options = LocalStackOptions.builder()
                .repoDir(repo)
                .dataDir(root.resolve("data"))
                .randomPorts()
                .children(EnumSet.of(Component.PAYMENT_SERVICE))
                .replicas(Component.PAYMENT_SERVICE, 2)
                .jvmOptions(SMALL_JVM)
                .stopTimeout(Duration.ofSeconds(10))
                .healthTimeout(Duration.ofSeconds(60))
                .build();

        try (RunningStack stack = LocalStack.start(options)) {
            assertThat(stack.replicas(Component.PAYMENT_SERVICE)).containsExactly("payment-service-1", "payment-service-2");
            String balanced = stack.urlOf(Component.PAYMENT_SERVICE);
            assertThat(balanced).endsWith(":" + stack.portOf(Component.PAYMENT_SERVICE));
            int first = portOf(stack.urlOfReplica("payment-service-1"));
            int second = portOf(stack.urlOfReplica("payment-service-2"));
            assertThat(Set.of(first, second)).hasSize(2).doesNotContain(stack.portOf(Component.PAYMENT_SERVICE));
            assertThat(get(stack.urlOfReplica("payment-service-2") + "/args").lines())
                    .contains("--server.port=" + second, "--scheduling.replica-name=payment-service-2");

            // HAProxy checks each replica every second; one that was not listening yet when it started is in rotation
            // after its first good check, which may come a moment after the stack reports healthy.
            assertThat(answeringWithin(balanced, Duration.ofSeconds(20))).as("round-robin over both")
                    .containsExactlyInAnyOrder(first, second);

            stack.act("payment-service-1", StackAction.KILL);
            assertThat(stack.status("payment-service-1").state()).isEqualTo(ComponentState.KILLED);
            assertThat(stack.status("payment-service-2").state()).isEqualTo(ComponentState.RUNNING);
            // A connection the dead replica refuses is tried on the other: no client sees the kill.
            assertThat(answeringPorts(balanced, 6)).containsExactly(second);

            stack.act("payment-service-1", StackAction.START);
            // Back in rotation after its next health check (every second).
            assertThat(answeringWithin(balanced, Duration.ofSeconds(20))).containsExactlyInAnyOrder(first, second);
        }
    }

    /** The replicas answering through the load balancer, asked until both answer or {@code patience} is over. */
    private Set<Integer> answeringWithin(String balanced, Duration patience) throws Exception {
        long until = System.nanoTime() + patience.toNanos();
        Set<Integer> seen = Set.of();
        while (System.nanoTime() < until && seen.size() < 2) {
            seen = answeringPorts(balanced, 4);
        }
        return seen;
    }

    /** The {@code --server.port} of the replicas that answered {@code n} requests through the load balancer. */
    private Set<Integer> answeringPorts(String balanced, int n) throws Exception {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < n; i++) {
            get(balanced + "/args").lines().filter(line -> line.startsWith("--server.port="))
                    .forEach(line -> ports.add(Integer.parseInt(line.substring(line.indexOf('=') + 1))));
        }
        return ports;
    }

    private static int portOf(String url) {
        return URI.create(url).getPort();
    }

    private String get(String url) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(url).isEqualTo(200);
        return response.body();
    }
}
