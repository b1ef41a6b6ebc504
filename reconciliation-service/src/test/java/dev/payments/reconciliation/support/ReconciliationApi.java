package dev.payments.reconciliation.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;

import java.time.Duration;
import java.util.UUID;

import static org.awaitility.Awaitility.await;

/** reconciliation-service's HTTP API as its integration tests use it: reads, operator calls, waiting on views. */
public final class ReconciliationApi {

    private static final Duration EVENTUALLY = Duration.ofSeconds(30);

    private final TestRestTemplate http;
    private final String operatorToken;

    public ReconciliationApi(TestRestTemplate http, String operatorToken) {
        this.http = http;
        this.operatorToken = operatorToken;
    }

    /** The body of a 2xx answer, or a missing node. */
    public JsonNode get(String path) {
        ResponseEntity<JsonNode> response = http.getForEntity(path, JsonNode.class);
        return response.getStatusCode().is2xxSuccessful() ? response.getBody() : MissingNode.getInstance();
    }

    /** A call with the operator token. */
    public ResponseEntity<JsonNode> operator(HttpMethod method, String path, Object body) {
        HttpHeaders headers = new HttpHeaders();
        headers.set("X-Operator-Token", operatorToken);
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange(path, method, new HttpEntity<>(body, headers), JsonNode.class);
    }

    public void awaitOrder(UUID orderId, String status) {
        await().atMost(EVENTUALLY).until(() -> get("/api/reconciliation/orders/" + orderId).path("status").asText(),
                status::equals);
    }

    public void awaitOrder(AnOrder order, String status) {
        awaitOrder(order.orderId, status);
    }

    public void awaitPayment(AnOrder order, String status) {
        awaitPayment(order.paymentId, status);
    }

    public void awaitPayment(UUID paymentId, String status) {
        await().atMost(EVENTUALLY).until(() -> get("/api/reconciliation/payments/" + paymentId).path("status").asText(),
                status::equals);
    }
}
