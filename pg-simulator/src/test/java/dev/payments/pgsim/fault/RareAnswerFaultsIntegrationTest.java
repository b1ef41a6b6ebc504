package dev.payments.pgsim.fault;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PG answers a client rarely sees but must not misread: refusals that are not declines, a key still in
 * progress, a booking made after the client gave up, an approval of another amount.
 */
class RareAnswerFaultsIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void injectedRefusalsThatAreNotDeclinesBookNothing() throws Exception {
        Map<Integer, String> codes = Map.of(401, "UNAUTHORIZED_KEY", 403, "FORBIDDEN_REQUEST", 429, "TOO_MANY_REQUESTS");
        for (var expected : codes.entrySet()) {
            client.faults("{\"operation\":\"confirm\",\"errorRate\":1.0,\"errorStatus\":" + expected.getKey() + "}");

            HttpResponse<String> response = client.confirm("pk-" + expected.getKey(), "order-" + expected.getKey() + "00", 1000);

            assertThat(response.statusCode()).isEqualTo(expected.getKey());
            assertThat(json(response).get("code").asText()).isEqualTo(expected.getValue());
        }
        assertThat(simulator.ledger().payments()).isEmpty();
        assertThat(simulator.stats().clientErrors()).isEqualTo(3);
        assertThat(simulator.stats().serverErrors()).isZero();
    }

    @Test
    void anInjected409IsAnsweredAtOnceWhileTheConfirmIsBookedAnyway() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"errorRate\":1.0,\"errorStatus\":409,\"latency\":{\"fixedMs\":300}}");

        HttpResponse<String> response = client.confirm("pk-409", "order-40900", 1000, "idem-409");

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(json(response).get("code").asText()).isEqualTo("IDEMPOTENT_REQUEST_PROCESSING");
        assertThat(json(client.get("/v1/payments/pk-409")).get("status").asText()).isEqualTo("IN_PROGRESS");
        await().atMost(Duration.ofSeconds(5)).until(() ->
                "DONE".equals(json(client.get("/v1/payments/pk-409")).get("status").asText()));
        assertThat(simulator.ledger().transactions()).hasSize(1);
    }

    @Test
    void aLateBookingIsNotFoundUntilTheClientGaveUpThenDone() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":700}}");

        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-late", "order-late01", 1000, "idem-late",
                Duration.ofMillis(300)))).isInstanceOf(HttpTimeoutException.class);

        assertThat(client.get("/v1/payments/orders/order-late01").statusCode()).isEqualTo(404);
        assertThat(simulator.ledger().transactions()).isEmpty();
        // The booking is counted last (after the payment is begun, then approved): waiting for the count waits for all.
        await().atMost(Duration.ofSeconds(5)).until(() -> simulator.stats().lateBookings() == 1);
        assertThat(json(client.get("/v1/payments/pk-late")).get("status").asText()).isEqualTo("DONE");
        assertThat(simulator.ledger().transactions()).singleElement()
                .satisfies(t -> assertThat(t.amount()).isEqualTo(1000));
    }

    @Test
    void aLateBookingStillHappensWhenTheFaultIsClearedRightAfterTheClientGaveUp() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":500}}");
        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-cleared", "order-cleared1", 1000, "idem-cleared",
                Duration.ofMillis(300)))).isInstanceOf(HttpTimeoutException.class);

        simulator.faults().reset();

        await().atMost(Duration.ofSeconds(5)).until(() -> simulator.stats().lateBookings() == 1);
        assertThat(simulator.ledger().payment("pk-cleared")).get()
                .satisfies(p -> assertThat(p.status().name()).isEqualTo("DONE"));
    }

    @Test
    void aLateBookingNeverApprovesAnOrderThatWasPaidMeanwhile() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":600}}");
        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-first", "order-twice1", 1000, null,
                Duration.ofMillis(200)))).isInstanceOf(HttpTimeoutException.class);
        simulator.faults().reset();

        assertThat(client.confirm("pk-second", "order-twice1", 1000).statusCode()).isEqualTo(200);

        await().pollDelay(Duration.ofMillis(900)).atMost(Duration.ofSeconds(3)).until(() -> true);
        assertThat(simulator.ledger().transactions()).singleElement()
                .satisfies(t -> assertThat(t.paymentKey()).isEqualTo("pk-second"));
        assertThat(simulator.stats().lateBookings()).isZero();
    }

    @Test
    void anAmountDeltaIsBookedAndAnsweredAsTheOtherAmount() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"amountDelta\":500}");

        HttpResponse<String> response = client.confirm("pk-amount", "order-amount1", 1000);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("totalAmount").asLong()).isEqualTo(1500);
        assertThat(json(client.get("/v1/payments/pk-amount")).get("totalAmount").asLong()).isEqualTo(1500);
        assertThat(json(client.get("/v1/transactions")).get("transactions").get(0).get("amount").asLong()).isEqualTo(1500);
    }

    @Test
    void theNewFaultsAreRefusedOutsideTheirScope() throws Exception {
        assertThat(client.adminPut("/admin/faults", "{\"operation\":\"query\",\"lateBooking\":{\"afterMs\":1}}").statusCode())
                .isEqualTo(400);
        assertThat(client.adminPut("/admin/faults", "{\"errorRate\":1.0,\"errorStatus\":409}").statusCode())
                .isEqualTo(400);
        assertThat(client.adminPut("/admin/faults", "{\"operation\":\"cancel\",\"amountDelta\":5}").statusCode())
                .isEqualTo(400);
        HttpResponse<String> badStatus = client.adminPut("/admin/faults", "{\"errorRate\":1.0,\"errorStatus\":418}");
        assertThat(badStatus.statusCode()).isEqualTo(400);
        assertThat(json(badStatus).get("message").asText()).contains("401, 403, 409, 429, 500");
    }
}
