package dev.payments.pgsim.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;

/** A plain JDK HttpClient talking to a simulator the way a merchant server would. */
public final class SimClient {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private final PgSimulator simulator;
    private final HttpClient http;
    private final String authorization;

    public SimClient(PgSimulator simulator) {
        this(simulator, PgSimulatorConfig.DEFAULT_SECRET_KEY);
    }

    public SimClient(PgSimulator simulator, String secretKey) {
        this.simulator = simulator;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        this.authorization = "Basic " + Base64.getEncoder().encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8));
    }

    /** The {@code Authorization} header this client sends to the gateway (Basic, the secret key). */
    public String authorization() {
        return authorization;
    }

    public static String confirmBody(String paymentKey, String orderId, long amount) {
        return "{\"paymentKey\":\"" + paymentKey + "\",\"orderId\":\"" + orderId + "\",\"amount\":" + amount + "}";
    }

    public HttpResponse<String> confirm(String paymentKey, String orderId, long amount) throws IOException {
        return send(confirmRequest(paymentKey, orderId, amount, null, DEFAULT_TIMEOUT));
    }

    public HttpResponse<String> confirm(String paymentKey, String orderId, long amount, String idempotencyKey)
            throws IOException {
        return send(confirmRequest(paymentKey, orderId, amount, idempotencyKey, DEFAULT_TIMEOUT));
    }

    public CompletableFuture<HttpResponse<String>> confirmAsync(String paymentKey, String orderId, long amount,
            String idempotencyKey, Duration timeout) {
        return http.sendAsync(confirmRequest(paymentKey, orderId, amount, idempotencyKey, timeout),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpRequest confirmRequest(String paymentKey, String orderId, long amount, String idempotencyKey,
            Duration timeout) {
        HttpRequest.Builder builder = gateway("/v1/payments/confirm", timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(confirmBody(paymentKey, orderId, amount)));
        if (idempotencyKey != null) {
            builder.header("Idempotency-Key", idempotencyKey);
        }
        return builder.build();
    }

    public HttpResponse<String> cancel(String paymentKey, String reason) throws IOException {
        return send(gateway("/v1/payments/" + paymentKey + "/cancel", DEFAULT_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"cancelReason\":\"" + reason + "\"}")).build());
    }

    /** A partial cancel ({@code amount} null: everything left) under an Idempotency-Key (null: none). */
    public HttpResponse<String> cancel(String paymentKey, String reason, Long amount, String idempotencyKey)
            throws IOException {
        return send(cancelRequest(paymentKey, reason, amount, idempotencyKey, DEFAULT_TIMEOUT));
    }

    public HttpRequest cancelRequest(String paymentKey, String reason, Long amount, String idempotencyKey,
                                     Duration timeout) {
        String body = "{\"cancelReason\":\"" + reason + "\""
                + (amount == null ? "" : ",\"cancelAmount\":" + amount) + "}";
        HttpRequest.Builder builder = gateway("/v1/payments/" + paymentKey + "/cancel", timeout)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            builder.header("Idempotency-Key", idempotencyKey);
        }
        return builder.build();
    }

    public HttpResponse<String> get(String path) throws IOException {
        return send(gateway(path, DEFAULT_TIMEOUT).GET().build());
    }

    public HttpResponse<String> get(String path, Duration timeout) throws IOException {
        return send(gateway(path, timeout).GET().build());
    }

    public HttpResponse<String> adminPut(String path, String json) throws IOException {
        return send(admin(path).PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public HttpResponse<String> adminPost(String path, String json) throws IOException {
        return send(admin(path).POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public HttpResponse<String> adminGet(String path) throws IOException {
        return send(admin(path).GET().build());
    }

    public HttpResponse<String> adminDelete(String path) throws IOException {
        return send(admin(path).DELETE().build());
    }

    /** Sets faults through the admin API and fails the test if they are refused. */
    public void faults(String json) throws IOException {
        HttpResponse<String> response = adminPut("/admin/faults", json);
        if (response.statusCode() != 200) {
            throw new AssertionError("faults refused: " + response.body());
        }
    }

    public HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    public HttpRequest.Builder gateway(String path, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(simulator.baseUrl() + path))
                .timeout(timeout)
                .header("Authorization", authorization);
    }

    private HttpRequest.Builder admin(String path) {
        return HttpRequest.newBuilder(URI.create(simulator.adminBaseUrl() + path)).timeout(DEFAULT_TIMEOUT);
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }
}
