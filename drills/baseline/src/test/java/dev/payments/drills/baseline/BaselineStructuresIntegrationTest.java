package dev.payments.drills.baseline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The baselines are only worth comparing with if they really have 000's structures: the in-tx one holds a pooled
 * connection for every PG call in flight, the after-commit one none, and the after-commit one's second connection per
 * request deadlocks a small pool into compensating cancels. Real PostgreSQL, the PG simulator over HTTP, the
 * application over HTTP; the pool as an operator reads it from /actuator/prometheus.
 */
class BaselineStructuresIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern ACTIVE = Pattern.compile("(?m)^hikaricp_connections_active\\{[^}]*} ([0-9.]+)$");

    private static PgSimulator pg;

    @BeforeAll
    static void pg() {
        pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0));
    }

    @AfterAll
    static void stop() {
        pg.close();
    }

    @Test
    void the_in_transaction_structure_holds_a_connection_for_every_pg_call_in_flight() throws Exception {
        try (ConfigurableApplicationContext app = start("in-tx", "baseline_in_tx", 10, 30_000)) {
            assertThat(connectionsHeldDuringPgCalls(app, 4)).isEqualTo(4);
        }
    }

    /**
     * Two connections, four approvals: while the PG holds them the pool lends none; when the PG answers all four at
     * once, two save and then wait for a second connection while holding their first, the other two wait for a first
     * one; every wait ends in the pool's timeout, and the two whose save never started are cancelled at the PG (000's
     * 123 compensating cancels, in small). One context for both claims: each start costs minutes on a loaded machine.
     */
    @Test
    void the_after_commit_structure_holds_none_during_the_pg_call_then_deadlocks_a_small_pool_into_cancels()
            throws Exception {
        try (ConfigurableApplicationContext app = start("after-commit", "baseline_after_commit", 2, 1_500)) {
            String base = url(app);
            List<String> orderIds = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                orderIds.add(placeOrder(base));
            }
            List<CompletableFuture<HttpResponse<String>>> confirms = confirmAllWhilePgHolds(base, orderIds);
            assertThat(activeConnections(base)).as("connections held while the PG holds 4 calls").isZero();

            List<Integer> statuses = confirms.stream().map(f -> f.join().statusCode()).toList();
            assertThat(statuses).containsOnly(200, 500);
            long failed = statuses.stream().filter(s -> s == 500).count();
            assertThat(failed).isGreaterThanOrEqualTo(2);
            long cancelled = orderIds.stream().filter(id -> pg.ledger().transactions().stream()
                    .anyMatch(tx -> tx.orderId().equals(id) && tx.type().name().equals("CANCEL"))).count();
            assertThat(cancelled).as("compensating cancels at the PG").isEqualTo(failed);
        } finally {
            pg.faults().reset();
        }
    }

    /** The confirms sent at once against a PG that takes 2 s, returned once the PG holds every one of them. */
    private static List<CompletableFuture<HttpResponse<String>>> confirmAllWhilePgHolds(String base,
                                                                                      List<String> orderIds)
            throws InterruptedException {
        pg.faults().set(FaultSpec.none(Operation.CONFIRM).withLatency(Latency.fixed(2_000)));
        long before = pg.stats().inFlight();
        List<CompletableFuture<HttpResponse<String>>> confirms = orderIds.stream().map(id -> confirm(base, id))
                .toList();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (pg.stats().inFlight() - before < orderIds.size() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(pg.stats().inFlight() - before).as("PG calls in flight").isEqualTo(orderIds.size());
        return confirms;
    }

    /** {@code n} approvals sent at once; the pool's active connections while the PG holds all n. */
    private static double connectionsHeldDuringPgCalls(ConfigurableApplicationContext app, int n) throws Exception {
        try {
            String base = url(app);
            List<String> orderIds = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                orderIds.add(placeOrder(base));
            }
            List<CompletableFuture<HttpResponse<String>>> confirms = confirmAllWhilePgHolds(base, orderIds);
            double active = activeConnections(base);
            for (CompletableFuture<HttpResponse<String>> confirm : confirms) {
                assertThat(confirm.join().statusCode()).isEqualTo(200);
            }
            for (String id : orderIds) {
                assertThat(get(base + "/api/orders/" + id).path("status").asText()).isEqualTo("PAID");
            }
            return active;
        } finally {
            pg.faults().reset();
        }
    }

    private static ConfigurableApplicationContext start(String structure, String database, int pool,
                                                        long connectionTimeoutMs) {
        String jdbcUrl = SharedTestInfrastructure.jdbcUrl(database);
        return new SpringApplicationBuilder(BaselineApplication.class).run(
                "--server.port=0",
                "--spring.datasource.url=" + jdbcUrl,
                "--spring.datasource.username=postgres",
                "--spring.datasource.password=postgres",
                "--spring.datasource.hikari.maximum-pool-size=" + pool,
                "--spring.datasource.hikari.connection-timeout=" + connectionTimeoutMs,
                "--baseline.structure=" + structure,
                "--baseline.pg.url=" + pg.baseUrl());
    }

    private static String url(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + ((WebServerApplicationContext) app).getWebServer().getPort();
    }

    private static String placeOrder(String base) throws Exception {
        HttpResponse<String> r = HTTP.send(post(base + "/api/orders",
                "{\"amount\":15000,\"currency\":\"KRW\",\"orderName\":\"baseline\"}"), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(201);
        return JSON.readTree(r.body()).path("orderId").asText();
    }

    private static CompletableFuture<HttpResponse<String>> confirm(String base, String orderId) {
        return HTTP.sendAsync(post(base + "/api/payments/confirm", "{\"orderId\":\"" + orderId
                + "\",\"paymentKey\":\"pk-" + orderId + "\",\"amount\":15000}"), HttpResponse.BodyHandlers.ofString());
    }

    private static double activeConnections(String base) throws Exception {
        String scrape = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = ACTIVE.matcher(scrape);
        assertThat(m.find()).as("hikaricp_connections_active in the scrape").isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static JsonNode get(String url) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static HttpRequest post(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
