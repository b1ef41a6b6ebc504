package dev.payments.payment.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.OrderCreated;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.localstack.infra.KafkaAccess;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.SharedTestInfrastructure;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.function.IntToLongFunction;

import static org.awaitility.Awaitility.await;

/** What payment-service's integration tests share: the PG simulator, order events, and HTTP calls as a client. */
public final class PaymentTestSupport {

    private static PgSimulator simulator;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private PaymentTestSupport() {
    }

    public static synchronized PgSimulator simulator() {
        if (simulator == null) {
            simulator = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0).withAdminPort(0));
            Runtime.getRuntime().addShutdownHook(new Thread(simulator::close));
        }
        return simulator;
    }

    /** Points the service at the shared PostgreSQL and Kafka (own database), the simulator and the test issuer. */
    public static void register(DynamicPropertyRegistry registry, String database) {
        AuthServer issuer = AuthServer.shared(); // starts while PostgreSQL and Kafka start
        SharedTestInfrastructure.springProperties(database, KafkaAccess.Service.PAYMENT).forEach((key, value) -> registry.add(key, () -> value));
        issuer.springProperties().forEach((key, value) -> registry.add(key, () -> value));
        registry.add("pg.client.base-url", () -> simulator().baseUrl());
    }

    /** Publishes an OrderCreated as order-service would, and waits until payment-service's view has it. */
    public static OrderCreated orderCreated(JdbcClient jdbc, String memberId, long amount) {
        return ordersCreated(jdbc, 1, i -> memberId, i -> amount).get(0);
    }

    /**
     * {@code count} orders placed at once, returned when payment-service has consumed every one: a test that needs
     * many orders waits for the consumer once, not once per order (a consumer's fetch waits up to its
     * {@code fetch-max-wait} for more events at low traffic).
     */
    public static List<OrderCreated> ordersCreated(JdbcClient jdbc, int count, IntFunction<String> memberId,
                                                   IntToLongFunction amount) {
        List<OrderCreated> orders = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            OrderCreated order = new OrderCreated(UUID.randomUUID(), memberId.apply(i), amount.applyAsLong(i), "KRW",
                    "Annual plan");
            RelayedGoldenEvents.publish(order);
            orders.add(order);
        }
        List<UUID> ids = orders.stream().map(OrderCreated::orderId).toList();
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.sql("SELECT count(*) FROM payable_orders WHERE order_id IN (:ids)")
                .param("ids", ids).query(Long.class).single() == count);
        return orders;
    }

    public static Response confirm(int port, String memberId, String idempotencyKey, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/payments/confirm"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (memberId != null) {
            request.header("Authorization", "Bearer " + memberToken(memberId));
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return send(request.build());
    }

    public static Response confirm(int port, OrderCreated order, String idempotencyKey) {
        return confirm(port, order.memberId(), idempotencyKey, confirmBody(order.orderId(), "pk-" + order.orderId(), order.amount()));
    }

    public static String confirmBody(UUID orderId, String paymentKey, long amount) {
        return "{\"orderId\":\"" + orderId + "\",\"paymentKey\":\"" + paymentKey + "\",\"amount\":" + amount + "}";
    }

    /** A member's cancel of a payment, with an optional JSON body. */
    public static Response cancel(int port, String memberId, String paymentId, String body) {
        return cancel(port, memberId, paymentId, body, memberToken(memberId));
    }

    /** A cancel with a given bearer token (null: none). */
    public static Response cancel(int port, String memberId, String paymentId, String body, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/payments/" + paymentId + "/cancel"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return send(request.build());
    }

    /** Reconciliation's call: the operator sync of one payment. */
    public static Response sync(int port, String paymentId) {
        return post(port, "/api/payments/" + paymentId + "/sync", operatorToken());
    }

    /** A confirm sent to the PG by someone other than payment-service (another attempt, the PG's console). */
    public static int confirmAtPg(String paymentKey, UUID orderId, long amount) {
        String auth = java.util.Base64.getEncoder().encodeToString(
                (simulator().config().secretKey() + ":").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(URI.create(simulator().baseUrl() + "/v1/payments/confirm"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentKey\":\"" + paymentKey + "\",\"orderId\":\""
                        + orderId + "\",\"amount\":" + amount + "}"))
                .build()).status();
    }

    /** A partial cancel booked at the PG by someone other than payment-service's request (a late back end, a console). */
    public static int cancelAtPg(String paymentKey, long amount, String reason, String idempotencyKey) {
        String auth = java.util.Base64.getEncoder().encodeToString(
                (simulator().config().secretKey() + ":").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return send(HttpRequest.newBuilder(URI.create(simulator().baseUrl() + "/v1/payments/" + paymentKey + "/cancel"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString("{\"cancelReason\":\"" + reason + "\",\"cancelAmount\":"
                        + amount + "}"))
                .build()).status();
    }

    /** A card registered for automatic payments at the PG: the billing key it issued to {@code customerKey}. */
    public static String issueBillingKey(String customerKey) {
        String auth = java.util.Base64.getEncoder().encodeToString(
                (simulator().config().secretKey() + ":").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Response issued = send(HttpRequest.newBuilder(URI.create(simulator().baseUrl() + "/v1/billing/authorizations/issue"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + auth)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerKey\":\"" + customerKey + "\",\"authKey\":\"a\"}"))
                .build());
        if (issued.status() != 200) {
            throw new IllegalStateException("The PG issued no billing key: " + issued);
        }
        return issued.text("billingKey");
    }

    /** @param bearer the access token to send, or null for none */
    public static Response postJson(int port, String path, String bearer, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return send(request.build());
    }

    /** A POST with a JSON body and an Idempotency-Key. */
    public static Response postJson(int port, String path, String bearer, String body, String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return send(request.build());
    }

    /** A read that must answer within {@code timeout}; a timeout fails the test with what it means. */
    public static Response get(int port, String path, String bearer, Duration timeout) {
        try {
            return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(timeout)
                    .header("Authorization", "Bearer " + bearer).GET().build());
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof java.net.http.HttpTimeoutException) {
                throw new AssertionError("GET " + path + " got no answer within " + timeout
                        + ": every web thread is taken", e);
            }
            throw e;
        }
    }

    /** A member's token from the test issuer: subject = the member, scope {@code member}. */
    public static String memberToken(String memberId) {
        return AuthServer.shared().member(memberId);
    }

    /** An operator's token with the one scope the sync needs. */
    public static String operatorToken() {
        return AuthServer.shared().operator("operator-1", "payments:sync");
    }

    /** An operator's token with the given scopes only. */
    public static String operatorToken(String... scopes) {
        return AuthServer.shared().operator("operator-1", scopes);
    }

    /** @param bearer the access token to send, or null for none */
    public static Response get(int port, String path, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return send(request.build());
    }

    /** @param bearer the access token to send, or null for none */
    public static Response post(int port, String path, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return send(request.build());
    }

    private static Response send(HttpRequest request) {
        try {
            long started = System.nanoTime();
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            long took = System.nanoTime() - started;
            JsonNode json = response.body().isBlank() ? JSON.nullNode() : JSON.readTree(response.body());
            return new Response(response.statusCode(), json, response.headers().firstValue("Content-Type").orElse(""),
                    response.headers().firstValue("Retry-After").orElse(null), Duration.ofNanos(took));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }


    /** An HTTP answer as a client sees it. */
    public record Response(int status, JsonNode body, String contentType, String retryAfter, Duration took) {

        public String text(String field) {
            return body.path(field).asText(null);
        }
    }
}
