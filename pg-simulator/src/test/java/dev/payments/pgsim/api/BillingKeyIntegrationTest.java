package dev.payments.pgsim.api;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Toss's automatic payments: issue a billing key, charge it under an Idempotency-Key, with confirm's faults. */
class BillingKeyIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void aChargeOfAnIssuedKeyIsBookedOnceAndItsRepeatGetsTheFirstAnswer() throws Exception {
        String billingKey = issue("member-1");

        HttpResponse<String> first = charge(billingKey, "member-1", "renewal-0001", 9900, "renew-1");
        HttpResponse<String> repeat = charge(billingKey, "member-1", "renewal-0001", 9900, "renew-1");

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(json(first).get("status").asText()).isEqualTo("DONE");
        assertThat(json(first).get("paymentKey").asText()).isEqualTo("bill_renewal-0001");
        assertThat(json(first).get("totalAmount").asLong()).isEqualTo(9900);
        assertThat(repeat.body()).isEqualTo(first.body());
        assertThat(json(client.get("/v1/transactions")).get("transactions")).singleElement()
                .satisfies(t -> assertThat(t.get("orderId").asText()).isEqualTo("renewal-0001"));
        assertThat(json(client.get("/v1/payments/bill_renewal-0001")).get("status").asText()).isEqualTo("DONE");
    }

    @Test
    void aSecondChargeOfTheSameOrderUnderAnotherKeyIsRefused() throws Exception {
        String billingKey = issue("member-1");
        charge(billingKey, "member-1", "renewal-0002", 9900, "renew-a");

        HttpResponse<String> other = charge(billingKey, "member-1", "renewal-0002", 9900, "renew-b");

        assertThat(other.statusCode()).isEqualTo(400);
        assertThat(json(other).get("code").asText()).isEqualTo("ALREADY_PROCESSED_PAYMENT");
        assertThat(json(client.get("/v1/transactions")).get("transactions")).hasSize(1);
    }

    @Test
    void anotherCustomersKeyOrAnUnknownKeyChargesNothing() throws Exception {
        String billingKey = issue("member-1");

        HttpResponse<String> stolen = charge(billingKey, "member-2", "renewal-0003", 9900, "renew-3");
        HttpResponse<String> unknown = charge("bk_unknown", "member-1", "renewal-0004", 9900, "renew-4");

        assertThat(stolen.statusCode()).isEqualTo(404);
        assertThat(json(stolen).get("code").asText()).isEqualTo("NOT_FOUND_BILLING_KEY");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(json(client.get("/v1/transactions")).get("transactions")).isEmpty();
    }

    @Test
    void confirmFaultsApplyToCharges() throws Exception {
        String billingKey = issue("member-1");
        client.faults("{\"operation\":\"confirm\",\"declineRate\":1.0,\"declineCode\":\"REJECT_CARD_PAYMENT\"}");

        HttpResponse<String> declined = charge(billingKey, "member-1", "renewal-0005", 9900, "renew-5");

        assertThat(declined.statusCode()).isEqualTo(403);
        assertThat(json(declined).get("code").asText()).isEqualTo("REJECT_CARD_PAYMENT");
        assertThat(json(client.get("/v1/payments/bill_renewal-0005")).get("status").asText()).isEqualTo("ABORTED");

        client.faults("{\"operation\":\"confirm\",\"errorRate\":1.0,\"errorStatus\":503}");
        assertThat(charge(billingKey, "member-1", "renewal-0006", 9900, "renew-6").statusCode()).isEqualTo(503);
        assertThat(client.get("/v1/payments/bill_renewal-0006").statusCode()).isEqualTo(404);
    }

    private static String issue(String customerKey) throws IOException {
        HttpResponse<String> issued = client.send(client.gateway("/v1/billing/authorizations/issue", Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"customerKey\":\"" + customerKey + "\",\"authKey\":\"auth-1\"}"))
                .build());
        assertThat(issued.statusCode()).isEqualTo(200);
        assertThat(json(issued).get("customerKey").asText()).isEqualTo(customerKey);
        return json(issued).get("billingKey").asText();
    }

    private static HttpResponse<String> charge(String billingKey, String customerKey, String orderId, long amount,
                                               String idempotencyKey) throws IOException {
        return client.send(client.gateway("/v1/billing/" + billingKey, Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerKey\":\"" + customerKey + "\",\"orderId\":\""
                        + orderId + "\",\"amount\":" + amount + ",\"orderName\":\"Monthly plan\"}"))
                .build());
    }
}
