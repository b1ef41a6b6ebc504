package dev.payments.support.web.overload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.testapp.TestApplication;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service with 4 web threads, offered work for 40 (each request holds its thread 100 ms, 40 callers sending the
 * next as soon as they have an answer, no back-off): the queue in front of the threads never drains, and what waited
 * longer than the target is refused at once with 503 OVERLOADED, Retry-After and problem+json, ahead of the security
 * chain (a call without a token is refused as overloaded, not as unauthenticated), while the threads keep serving the
 * requests they take within a bounded wait. A read is never shed. A burst the threads can take at once sheds nothing.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=test-service", "server.port=0", "management.server.port=0",
                "settings.required.database=", "settings.required.kafka=",
                "server.tomcat.threads.max=4", "server.tomcat.threads.min-spare=4",
                "api.overload.target=50ms", "api.overload.interval=200ms", "api.overload.retry-after=2s"})
class OverloadSheddingIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @DynamicPropertySource
    static void issuer(DynamicPropertyRegistry registry) {
        AuthServer.shared().springProperties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    record Answer(int status, String retryAfter, String contentType, JsonNode body, long nanos) {
    }

    @Test
    void aQueueThatNeverDrainsIsShedAheadOfTheSecurityChainAndTheThreadsKeepServing() throws Exception {
        List<Answer> answers = closedLoop(40, Duration.ofSeconds(4), "/api/slow?ms=100");

        List<Answer> served = answers.stream().filter(a -> a.status() == 200).toList();
        List<Answer> shed = answers.stream().filter(a -> a.status() == 503).toList();
        assertThat(answers).as("every answer is served or shed").allMatch(a -> a.status() == 200 || a.status() == 503);
        assertThat(shed).as("some were shed").isNotEmpty();
        assertThat(shed).allSatisfy(a -> {
            assertThat(a.retryAfter()).isEqualTo("2");
            assertThat(a.contentType()).isEqualTo("application/problem+json");
            assertThat(a.body().path("code").asText()).isEqualTo("OVERLOADED");
            assertThat(a.body().path("retryAfterMs").asLong()).isEqualTo(2000);
        });
        // 4 threads x 100 ms: at most 160 in 4 s; the threads kept serving (a quarter of that on a loaded machine).
        assertThat(served.size()).as("served in 4 s").isGreaterThan(40);
        assertThat(percentile(served, 0.5)).as("median latency of a served request, ms").isLessThan(1_000);

        Answer withoutToken = send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/ping")).GET());
        assertThat(withoutToken.status()).as("a call without a token while idle").isEqualTo(401);
    }

    @Test
    void whileShedding_aCallWithoutATokenIsRefusedAsOverloadedBeforeTheSecurityChainRuns() throws Exception {
        Overload overload = duringOverload(() -> HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/notes")).POST(HttpRequest.BodyPublishers.ofString("{}")), 503);

        assertThat(overload.probes()).as("unauthenticated writes during the overload").contains(503);
    }

    @Test
    void whileShedding_aReadIsNeverRefused() throws Exception {
        Overload overload = duringOverload(() -> HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/ping")).GET(), null);

        assertThat(overload.load()).as("the writes were shed meanwhile").anyMatch(a -> a.status() == 503);
        assertThat(overload.probes()).as("reads during the overload: answered by the security chain, never shed")
                .isNotEmpty().containsOnly(401);
    }

    record Overload(List<Answer> load, List<Integer> probes) {
    }

    /**
     * 40 callers on 4 threads for 6 s; from its second second, {@code probe} is sent again and again, each after the
     * last one's answer, until the load ends or a probe is answered {@code until} (null: never).
     */
    private Overload duringOverload(Supplier<HttpRequest.Builder> probe, Integer until) throws Exception {
        ExecutorService callers = Executors.newSingleThreadExecutor();
        try {
            Future<List<Answer>> load = callers.submit(() -> closedLoop(40, Duration.ofSeconds(6), "/api/slow?ms=100"));
            Thread.sleep(1_000);
            List<Integer> statuses = new ArrayList<>();
            while (!load.isDone() && (until == null || !statuses.contains(until))) {
                statuses.add(send(probe.get()).status());
            }
            return new Overload(load.get(), statuses);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aBurstTheThreadsCanTakeIsNotShed() throws Exception {
        List<Answer> answers = closedLoop(4, Duration.ofSeconds(2), "/api/slow?ms=100");

        assertThat(answers).isNotEmpty().allMatch(a -> a.status() == 200);
    }

    private List<Answer> closedLoop(int callers, Duration duration, String path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        long until = System.nanoTime() + duration.toNanos();
        List<Future<List<Answer>>> futures = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            futures.add(pool.submit(() -> {
                List<Answer> mine = new ArrayList<>();
                while (System.nanoTime() < until) {
                    mine.add(send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                            .POST(HttpRequest.BodyPublishers.noBody())));
                }
                return mine;
            }));
        }
        List<Answer> all = new ArrayList<>();
        for (Future<List<Answer>> f : futures) {
            all.addAll(f.get());
        }
        pool.shutdown();
        return all;
    }

    private Answer send(HttpRequest.Builder request) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        long nanos = System.nanoTime() - start;
        JsonNode body = response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
        return new Answer(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null),
                response.headers().firstValue("Content-Type").orElse(null), body, nanos);
    }

    private static double percentile(List<Answer> answers, double p) {
        List<Long> ms = answers.stream().map(a -> a.nanos() / 1_000_000).sorted().toList();
        return ms.get((int) Math.min(ms.size() - 1, Math.floor(p * ms.size())));
    }
}
