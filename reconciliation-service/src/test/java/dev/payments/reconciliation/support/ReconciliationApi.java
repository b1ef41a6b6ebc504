package dev.payments.reconciliation.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.payments.testsupport.identity.AuthServer;
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

    /** Every call goes as operator-1 with every operator scope ({@link Security#asOperator}). */
    public ReconciliationApi(TestRestTemplate http) {
        this.http = http;
        Security.asOperator(http);
    }

    /** The body of a 2xx answer, or a missing node. */
    public JsonNode get(String path) {
        ResponseEntity<JsonNode> response = http.getForEntity(path, JsonNode.class);
        return response.getStatusCode().is2xxSuccessful() ? response.getBody() : MissingNode.getInstance();
    }

    /** A call as the operator. */
    public ResponseEntity<JsonNode> operator(HttpMethod method, String path, Object body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        return http.exchange(path, method, new HttpEntity<>(body, headers), JsonNode.class);
    }

    /** A call as the named operator, with every operator scope. */
    public ResponseEntity<JsonNode> operatorAs(String operator, HttpMethod method, String path, Object body) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setBearerAuth(AuthServer.shared().operator(operator,
                "reconciliation:read", "incidents:write"));
        return http.exchange(path, method, new HttpEntity<>(body, headers), JsonNode.class);
    }

    /** A call as the named operator with exactly these scopes. */
    public ResponseEntity<JsonNode> operatorAs(String operator, HttpMethod method, String path, Object body,
                                               String... scopes) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setBearerAuth(AuthServer.shared().operator(operator, scopes));
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
