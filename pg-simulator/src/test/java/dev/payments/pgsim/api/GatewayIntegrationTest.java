package dev.payments.pgsim.api;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimClient;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GatewayIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void startsOnLoopbackWithSeparateAdminPort() {
        assertThat(simulator.baseUrl()).matches("http://127\\.0\\.0\\.1:\\d+");
        assertThat(simulator.adminBaseUrl()).matches("http://127\\.0\\.0\\.1:\\d+").isNotEqualTo(simulator.baseUrl());
    }

    @Test
    void rejectsMissingOrWrongSecretKey() throws Exception {
        HttpResponse<String> missing = client.send(HttpRequest.newBuilder(
                java.net.URI.create(simulator.baseUrl() + "/v1/payments/confirm"))
                .POST(HttpRequest.BodyPublishers.ofString(SimClient.confirmBody("pk-1", "order-0001", 1000))).build());
        HttpResponse<String> wrong = new SimClient(simulator, "live_sk_other").confirm("pk-1", "order-0001", 1000);

        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(json(missing).get("code").asText()).isEqualTo("UNAUTHORIZED_KEY");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(simulator.ledger().payments()).isEmpty();
    }

    @Test
    void confirmAnswersATossLikeDonePayment() throws Exception {
        HttpResponse<String> response = client.confirm("pk-1", "order-0001", 15_000);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        JsonNode payment = json(response);
        assertThat(payment.get("paymentKey").asText()).isEqualTo("pk-1");
        assertThat(payment.get("orderId").asText()).isEqualTo("order-0001");
        assertThat(payment.get("status").asText()).isEqualTo("DONE");
        assertThat(payment.get("method").asText()).isEqualTo("CARD");
        assertThat(payment.get("totalAmount").asLong()).isEqualTo(15_000);
        assertThat(payment.get("balanceAmount").asLong()).isEqualTo(15_000);
        assertThat(payment.get("cancels")).isEmpty();
        assertThat(OffsetDateTime.parse(payment.get("approvedAt").asText()).getOffset().getTotalSeconds()).isEqualTo(9 * 3600);
        OffsetDateTime.parse(payment.get("requestedAt").asText());
        assertThat(payment.get("lastTransactionKey").asText())
                .isEqualTo(simulator.ledger().transactions().get(0).transactionKey());
    }

    @Test
    void queriesByPaymentKeyAndOrderIdShowTheCurrentStatus() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);

        JsonNode byKey = json(client.get("/v1/payments/pk-1"));
        JsonNode byOrder = json(client.get("/v1/payments/orders/order-0001"));
        HttpResponse<String> unknown = client.get("/v1/payments/orders/order-never");

        assertThat(byKey.get("status").asText()).isEqualTo("DONE");
        assertThat(byOrder).isEqualTo(byKey);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("NOT_FOUND_PAYMENT");
        assertThat(client.get("/v1/payments/pk-never").statusCode()).isEqualTo(404);
    }

    @Test
    void neverApprovesAnOrderTwice() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);

        HttpResponse<String> sameKey = client.confirm("pk-1", "order-0001", 1000);
        HttpResponse<String> otherKey = client.confirm("pk-2", "order-0001", 1000);
        HttpResponse<String> otherIdempotencyKey = client.confirm("pk-1", "order-0001", 1000, "another-key");

        for (HttpResponse<String> response : java.util.List.of(sameKey, otherKey, otherIdempotencyKey)) {
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(json(response).get("code").asText()).isEqualTo("ALREADY_PROCESSED_PAYMENT");
        }
        assertThat(simulator.ledger().transactions()).hasSize(1);
    }

    @Test
    void cancelIsIdempotent() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);

        HttpResponse<String> first = client.cancel("pk-1", "customer changed mind");
        HttpResponse<String> second = client.cancel("pk-1", "retry");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.body()).isEqualTo(first.body());
        JsonNode canceled = json(first);
        assertThat(canceled.get("status").asText()).isEqualTo("CANCELED");
        assertThat(canceled.get("balanceAmount").asLong()).isZero();
        JsonNode cancel = canceled.get("cancels").get(0);
        assertThat(cancel.get("cancelAmount").asLong()).isEqualTo(1000);
        assertThat(cancel.get("cancelReason").asText()).isEqualTo("customer changed mind");
        assertThat(cancel.get("transactionKey").asText()).isEqualTo(canceled.get("lastTransactionKey").asText());
        OffsetDateTime.parse(cancel.get("canceledAt").asText());
        assertThat(simulator.ledger().transactions()).hasSize(2);
        assertThat(json(client.get("/v1/payments/orders/order-0001")).get("status").asText()).isEqualTo("CANCELED");
    }

    @Test
    void cancelOfUnknownOrDeclinedPaymentsIsRefused() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"declineRate\":1.0}");
        client.confirm("pk-1", "order-0001", 1000);

        HttpResponse<String> declined = client.cancel("pk-1", "r");
        HttpResponse<String> unknown = client.cancel("pk-never", "r");

        assertThat(declined.statusCode()).isEqualTo(400);
        assertThat(json(declined).get("code").asText()).isEqualTo("NOT_CANCELABLE_PAYMENT");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(unknown).get("code").asText()).isEqualTo("NOT_FOUND_PAYMENT");
    }

    @Test
    void validatesRequestsLikeToss() throws Exception {
        assertThat(json(client.confirm("pk-1", "o1", 1000)).get("message").asText()).contains("orderId");
        assertThat(client.confirm("pk-1", "order-0001", 0).statusCode()).isEqualTo(400);
        HttpResponse<String> malformed = client.send(client.gateway("/v1/payments/confirm", Duration.ofSeconds(5))
                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentKey\":")).build());
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(json(malformed).get("code").asText()).isEqualTo("INVALID_REQUEST");
        assertThat(client.get("/v1/refunds").statusCode()).isEqualTo(404);
        assertThat(client.send(client.gateway("/v1/payments/confirm", Duration.ofSeconds(5)).GET().build()).statusCode())
                .isEqualTo(405);
        assertThat(simulator.ledger().payments()).isEmpty();
    }
}
