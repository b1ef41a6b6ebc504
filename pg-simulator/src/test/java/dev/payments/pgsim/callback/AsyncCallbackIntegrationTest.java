package dev.payments.pgsim.callback;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Asynchronous mode (field report 001): accepted now, decided later, reported by signed callback. */
class AsyncCallbackIntegrationTest {

    private static final String SECRET = "whsec_it";
    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    /** A bound that ends a broken test, not a latency target: the callbacks are due in ~10 ms, a loaded CI may be slow. */
    private static final Duration EVENTUALLY = Duration.ofSeconds(30);

    private static CallbackReceiver receiver;
    private static PgSimulator simulator;
    private static SimClient client;

    @BeforeAll
    static void start() throws IOException {
        receiver = new CallbackReceiver();
        simulator = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0)
                .withCallbackUrl(receiver.url())
                .withCallbackSecret(SECRET)
                .withCallbackRetry(3, Duration.ofMillis(50), Duration.ofSeconds(1)));
        client = new SimClient(simulator);
    }

    @AfterAll
    static void stop() {
        simulator.close();
        receiver.close();
    }

    @BeforeEach
    void reset() {
        simulator.reset();
    }

    @AfterEach
    void drainScript() {
        receiver.clearScript();
    }

    @Test
    void aLateBookingCallsBackOnceItIsBooked() throws Exception {
        int before = receiver.deliveries().size();
        client.faults("{\"operation\":\"confirm\",\"lateBooking\":{\"afterMs\":200}}");

        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-late", "order-late01", 1000, null,
                Duration.ofMillis(200)))).isInstanceOf(java.net.http.HttpTimeoutException.class);

        await().atMost(EVENTUALLY).until(() -> receiver.deliveries().size() == before + 1);
        CallbackReceiver.Delivery delivery = receiver.deliveries().get(before);
        assertThat(CallbackSignature.verify(SECRET, delivery.timestamp(), delivery.body(), delivery.signature(), TOLERANCE))
                .isTrue();
        assertThat(SimClient.JSON.readTree(delivery.body()).get("data").get("status").asText()).isEqualTo("DONE");
    }

    @Test
    void acceptsInProgressThenCallsBackWithASignedDoneResult() throws Exception {
        int before = receiver.deliveries().size();
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":1.0,\"delay\":{\"fixedMs\":100}}}");

        HttpResponse<String> accepted = client.confirm("pk-1", "order-0001", 1000);

        assertThat(accepted.statusCode()).isEqualTo(200);
        assertThat(json(accepted).get("status").asText()).isEqualTo("IN_PROGRESS");
        assertThat(json(accepted).get("approvedAt").isNull()).isTrue();
        await().atMost(EVENTUALLY).until(() -> receiver.deliveries().size() == before + 1);
        CallbackReceiver.Delivery delivery = receiver.deliveries().get(before);
        assertThat(CallbackSignature.verify(SECRET, delivery.timestamp(), delivery.body(), delivery.signature(), TOLERANCE))
                .isTrue();
        JsonNode event = SimClient.JSON.readTree(delivery.body());
        assertThat(event.get("eventType").asText()).isEqualTo("PAYMENT_STATUS_CHANGED");
        assertThat(event.get("data").get("status").asText()).isEqualTo("DONE");
        assertThat(event.get("data").get("paymentKey").asText()).isEqualTo("pk-1");
        assertThat(json(client.get("/v1/payments/pk-1")).get("status").asText()).isEqualTo("DONE");
        assertThat(json(client.get("/v1/transactions")).get("transactions")).hasSize(1);
        await().atMost(EVENTUALLY).until(() -> simulator.stats().callbacksSent() == 1);
    }

    @Test
    void aTamperedOrReplayedCallbackDoesNotVerify() throws Exception {
        int before = receiver.deliveries().size();
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":1.0,\"delay\":{\"fixedMs\":10}}}");
        client.confirm("pk-1", "order-0001", 1000);
        await().atMost(EVENTUALLY).until(() -> receiver.deliveries().size() == before + 1);
        CallbackReceiver.Delivery delivery = receiver.deliveries().get(before);

        String tampered = delivery.body().replace("\"DONE\"", "\"CANCELED\"");
        long later = Long.parseLong(delivery.timestamp()) + 600;

        assertThat(CallbackSignature.verify(SECRET, delivery.timestamp(), tampered, delivery.signature(), TOLERANCE)).isFalse();
        assertThat(CallbackSignature.check(SECRET, delivery.timestamp(), delivery.body(), delivery.signature(), TOLERANCE,
                java.time.Instant.ofEpochSecond(later))).isEqualTo(CallbackSignature.Verification.STALE_TIMESTAMP);
    }

    @Test
    void aFailedAsyncProcessingIsAbortedWithADeclineCode() throws Exception {
        int before = receiver.deliveries().size();
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":0.0,\"delay\":{\"fixedMs\":10},"
                + "\"declines\":{\"INVALID_CARD_NUMBER\":1}}}");

        client.confirm("pk-1", "order-0001", 1000);

        await().atMost(EVENTUALLY).until(() -> receiver.deliveries().size() == before + 1);
        JsonNode data = SimClient.JSON.readTree(receiver.deliveries().get(before).body()).get("data");
        assertThat(data.get("status").asText()).isEqualTo("ABORTED");
        assertThat(data.get("failure").get("code").asText()).isEqualTo("INVALID_CARD_NUMBER");
        assertThat(json(client.get("/v1/transactions")).get("transactions")).isEmpty();
    }

    @Test
    void retriesWithBackoffUntilTheReceiverAcceptsWithTheSameEventIdAndFreshSignatures() throws Exception {
        int before = receiver.deliveries().size();
        receiver.answer(500, 503);
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":1.0,\"delay\":{\"fixedMs\":10}}}");

        client.confirm("pk-1", "order-0001", 1000);

        await().atMost(EVENTUALLY).until(() -> simulator.stats().callbacksSent() == 1);
        var attempts = receiver.deliveries().subList(before, receiver.deliveries().size());
        assertThat(attempts).hasSize(3);
        assertThat(attempts).extracting(CallbackReceiver.Delivery::eventId).containsOnly(attempts.get(0).eventId());
        assertThat(attempts).allSatisfy(d -> assertThat(
                CallbackSignature.verify(SECRET, d.timestamp(), d.body(), d.signature(), TOLERANCE)).isTrue());
        assertThat(simulator.stats().callbackAttempts()).isEqualTo(3);
        assertThat(simulator.stats().callbacksFailed()).isZero();
    }

    @Test
    void givesUpAfterTheLastAttempt() throws Exception {
        int before = receiver.deliveries().size();
        receiver.answer(500, 500, 500);
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":1.0,\"delay\":{\"fixedMs\":10}}}");

        client.confirm("pk-1", "order-0001", 1000);

        await().atMost(EVENTUALLY).until(() -> simulator.stats().callbacksFailed() == 1);
        assertThat(receiver.deliveries()).hasSize(before + 3);
        assertThat(json(client.get("/v1/payments/pk-1")).get("status").asText())
                .as("the payment is decided even if nobody heard about it").isEqualTo("DONE");
    }

    @Test
    void retriesWhenTheReceiverIsDownAndAFaultCanNameItsOwnCallbackUrl() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        client.faults("{\"operation\":\"confirm\",\"async\":{\"successRate\":1.0,\"delay\":{\"fixedMs\":10},"
                + "\"callbackUrl\":\"http://127.0.0.1:" + closedPort + "/nobody\"}}");

        client.confirm("pk-1", "order-0001", 1000);

        await().atMost(EVENTUALLY).until(() -> simulator.stats().callbacksFailed() == 1);
        assertThat(simulator.stats().callbackAttempts()).isEqualTo(3);
    }

    @Test
    void fieldReport001ProfileSucceedsAboutFortyTwoPercentOverall() throws Exception {
        // The profile as reported (60 % request success, 70 % processing success), with the
        // delays shortened so the test takes milliseconds, and a seed so it cannot flake.
        client.faults("{\"profile\":\"001\",\"latency\":{\"fixedMs\":0},\"async\":{\"delay\":{\"minMs\":1,\"maxMs\":20}},"
                + "\"seed\":1}");
        int accepted = 0;
        for (int i = 0; i < 200; i++) {
            HttpResponse<String> response = client.confirm("pk-" + i, "order-" + (1000 + i), 1000);
            if (response.statusCode() == 200) {
                accepted++;
                assertThat(json(response).get("status").asText()).isEqualTo("IN_PROGRESS");
            } else {
                assertThat(response.statusCode()).isEqualTo(500);
            }
        }
        int acceptedRequests = accepted;
        await().atMost(EVENTUALLY).until(() ->
                simulator.stats().approvals() + simulator.stats().declines() == acceptedRequests);

        assertThat(accepted).isBetween(100, 140);
        double processingSuccess = (double) simulator.stats().approvals() / accepted;
        assertThat(processingSuccess).isBetween(0.6, 0.8);
        assertThat(simulator.stats().approvals()).isBetween(70L, 100L);
        assertThat(simulator.ledger().transactions()).hasSize((int) simulator.stats().approvals());
    }
}
