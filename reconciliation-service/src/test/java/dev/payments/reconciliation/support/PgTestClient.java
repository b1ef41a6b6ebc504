package dev.payments.reconciliation.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;

/** Fills the simulator's books through its real gateway API, as payment-service would: confirm and cancel. */
public final class PgTestClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String baseUrl;
    private final String authorization;

    public PgTestClient(String baseUrl, String secretKey) {
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8));
    }

    /** The PG's answer to a confirm: its status, and for DONE the approval's key and time. */
    public record Confirmed(int httpStatus, String status, String transactionKey, Instant approvedAt) {
    }

    public Confirmed confirm(AnOrder order) {
        JsonNode body = post("/v1/payments/confirm", "{\"paymentKey\":\"" + order.paymentKey + "\",\"orderId\":\""
                + order.orderId + "\",\"amount\":" + order.amount + "}");
        String approvedAt = body.path("approvedAt").asText(null);
        return new Confirmed(body.path("_status").asInt(), body.path("status").asText(null),
                body.path("lastTransactionKey").asText(null),
                approvedAt == null || approvedAt.equals("null") ? null : OffsetDateTime.parse(approvedAt).toInstant());
    }

    public JsonNode cancel(AnOrder order, String reason) {
        return post("/v1/payments/" + order.paymentKey + "/cancel", "{\"cancelReason\":\"" + reason + "\"}");
    }

    /** A partial cancel of {@code amount} (what payment-service sends for a refund). */
    public JsonNode cancel(AnOrder order, String reason, long amount) {
        return post("/v1/payments/" + order.paymentKey + "/cancel", "{\"cancelReason\":\"" + reason
                + "\",\"cancelAmount\":" + amount + "}");
    }

    private JsonNode post(String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode node = JSON.readTree(response.body());
            ((com.fasterxml.jackson.databind.node.ObjectNode) node).put("_status", response.statusCode());
            return node;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
