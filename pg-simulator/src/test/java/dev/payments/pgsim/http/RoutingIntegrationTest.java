package dev.payments.pgsim.http;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Which request reaches which endpoint of both APIs: every route, the 405 for a known path with another method, the
 * JSON 404 for anything else, and the specific paths that must win over {@code /v1/payments/{paymentKey}}.
 */
class RoutingIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void everyGatewayEndpointAnswersItsMethod() throws Exception {
        assertThat(client.confirm("pk-1", "order-0001", 1000).statusCode()).isEqualTo(200);
        assertThat(json(client.get("/v1/payments/pk-1")).get("paymentKey").asText()).isEqualTo("pk-1");
        assertThat(json(client.get("/v1/payments/orders/order-0001")).get("paymentKey").asText()).isEqualTo("pk-1");
        assertThat(json(client.get("/v1/transactions?limit=1")).get("transactions")).hasSize(1);
        assertThat(json(client.cancel("pk-1", "test")).get("status").asText()).isEqualTo("CANCELED");
    }

    @Test
    void aKnownGatewayPathWithAnotherMethodIs405() throws Exception {
        assertCode(gateway("GET", "/v1/payments/confirm"), 405, "METHOD_NOT_ALLOWED");
        assertCode(gateway("PUT", "/v1/payments/confirm"), 405, "METHOD_NOT_ALLOWED");
        assertCode(gateway("GET", "/v1/payments/pk-1/cancel"), 405, "METHOD_NOT_ALLOWED");
        assertCode(gateway("POST", "/v1/payments/orders/order-0001"), 405, "METHOD_NOT_ALLOWED");
        assertCode(gateway("DELETE", "/v1/payments/pk-1"), 405, "METHOD_NOT_ALLOWED");
        assertCode(gateway("POST", "/v1/transactions"), 405, "METHOD_NOT_ALLOWED");
        assertThat(simulator.stats().confirmsReceived()).isZero();
    }

    @Test
    void anythingElseOnTheGatewayIsAJson404() throws Exception {
        assertCode(gateway("GET", "/"), 404, "NOT_FOUND");
        assertCode(gateway("GET", "/v1"), 404, "NOT_FOUND");
        assertCode(gateway("GET", "/v2/payments/pk-1"), 404, "NOT_FOUND");
        assertCode(gateway("GET", "/v1/payments/pk-1/receipt"), 404, "NOT_FOUND");
        assertCode(gateway("GET", "/v1/payments/orders/order-0001/extra"), 404, "NOT_FOUND");
        assertCode(gateway("POST", "/v1/refunds"), 404, "NOT_FOUND");
    }

    @Test
    void aPaymentKeyNamedLikeARouteIsStillAPaymentKey() throws Exception {
        // "orders" alone is not the order route (it needs an order id): a query for the payment key "orders".
        assertCode(gateway("GET", "/v1/payments/orders"), 404, "NOT_FOUND_PAYMENT");
        assertThat(client.confirm("cancel", "order-0002", 1000).statusCode()).isEqualTo(200);
        assertThat(json(client.get("/v1/payments/cancel")).get("orderId").asText()).isEqualTo("order-0002");
    }

    @Test
    void pathParametersAreDecoded() throws Exception {
        assertThat(client.confirm("pk 1", "order-0003", 1000).statusCode()).isEqualTo(200);

        assertThat(json(client.get("/v1/payments/pk%201")).get("paymentKey").asText()).isEqualTo("pk 1");
    }

    @Test
    void everyAdminEndpointAnswersItsMethod() throws Exception {
        assertThat(client.adminPut("/admin/faults", "{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":1}}")
                .statusCode()).isEqualTo(200);
        assertThat(client.adminPost("/admin/faults", "{\"operation\":\"query\",\"latency\":{\"fixedMs\":1}}")
                .statusCode()).isEqualTo(200);
        assertThat(json(client.adminGet("/admin/faults")).get("faults")).hasSize(2);
        assertThat(json(client.adminDelete("/admin/faults?operation=query")).get("faults")).hasSize(1);
        assertThat(client.adminGet("/admin/stats").statusCode()).isEqualTo(200);
        assertThat(client.adminPost("/admin/reset", "").statusCode()).isEqualTo(204);
        assertThat(json(admin("POST", "/admin/health")).get("status").asText()).as("health on any method")
                .isEqualTo("UP");
    }

    @Test
    void theAdminApiAnswers405And404AsJson() throws Exception {
        assertCode(admin("POST", "/admin/stats"), 405, "METHOD_NOT_ALLOWED");
        assertCode(admin("GET", "/admin/reset"), 405, "METHOD_NOT_ALLOWED");
        assertCode(admin("DELETE", "/admin/stats"), 405, "METHOD_NOT_ALLOWED");
        HttpResponse<String> unknown = admin("GET", "/admin/nothing");
        assertCode(unknown, 404, "NOT_FOUND");
        assertThat(json(unknown).get("message").asText()).contains("/admin/nothing");
        assertCode(admin("GET", "/v1/payments/pk-1"), 404, "NOT_FOUND");
    }

    @Test
    void badAdminInputIsA400() throws Exception {
        assertCode(admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"hang\":tru"), 400, "INVALID_REQUEST");
        assertCode(admin("DELETE", "/admin/faults?operation=nope"), 400, "INVALID_REQUEST");
    }

    private static void assertCode(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.request().method() + " " + response.uri()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(json(response).get("code").asText()).isEqualTo(code);
    }

    private static HttpResponse<String> gateway(String method, String path) throws IOException {
        return client.send(client.gateway(path, Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "{}")).build());
    }

    private static HttpResponse<String> admin(String method, String path) throws IOException {
        return admin(method, path, "");
    }

    private static HttpResponse<String> admin(String method, String path, String body) throws IOException {
        return client.send(HttpRequest.newBuilder(URI.create(simulator.adminBaseUrl() + path))
                .timeout(Duration.ofSeconds(5)).method(method, HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
