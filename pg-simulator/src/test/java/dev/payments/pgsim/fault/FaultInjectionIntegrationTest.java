package dev.payments.pgsim.fault;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.ledger.PaymentStatus;
import dev.payments.pgsim.ledger.TransactionType;
import dev.payments.pgsim.testing.SimClient;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every fault mode, observed the way a client observes it. */
class FaultInjectionIntegrationTest extends SimulatorIntegrationTest {

    private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(400);

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void fixedLatencyDelaysTheAnswer() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":300}}");

        long started = System.nanoTime();
        HttpResponse<String> response = client.confirm("pk-1", "order-0001", 1000);
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(elapsedMs).isBetween(300L, 2_000L);
    }

    @Test
    void uniformLatencyStaysWithinItsRangeAndOnlyForItsOperation() throws Exception {
        client.faults("{\"operation\":\"query\",\"latency\":{\"minMs\":100,\"maxMs\":200}}");
        client.confirm("pk-1", "order-0001", 1000);

        for (int i = 0; i < 3; i++) {
            long started = System.nanoTime();
            assertThat(client.get("/v1/payments/pk-1").statusCode()).isEqualTo(200);
            assertThat((System.nanoTime() - started) / 1_000_000).isBetween(100L, 1_500L);
        }
        long started = System.nanoTime();
        client.confirm("pk-2", "order-0002", 1000);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(100L);
    }

    @Test
    void aConfirmSlowerThanTheClientStillApprovesLikeARealPg() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":500}}");

        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-1", "order-0001", 1000, null, Duration.ofMillis(150))))
                .isInstanceOf(HttpTimeoutException.class);
        assertThat(json(client.get("/v1/payments/orders/order-0001")).get("status").asText()).isEqualTo("IN_PROGRESS");

        await().atMost(Duration.ofSeconds(3)).untilAsserted(() ->
                assertThat(json(client.get("/v1/payments/orders/order-0001")).get("status").asText()).isEqualTo("DONE"));
    }

    @Test
    void hangNeverAnswersAndRecordsNothing() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"hang\":true}");

        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-1", "order-0001", 1000, null, CLIENT_TIMEOUT)))
                .isInstanceOf(HttpTimeoutException.class);

        assertThat(client.get("/v1/payments/pk-1").statusCode()).isEqualTo(404);
        assertThat(simulator.stats().hangs()).isEqualTo(1);
        await().atMost(Duration.ofSeconds(2)).until(() -> simulator.stats().inFlight() == 0);
    }

    @Test
    void clearingTheHangClosesTheHeldConnections() throws Exception {
        // A POST, because the JDK client silently retries a GET whose connection closed unanswered.
        client.faults("{\"operation\":\"confirm\",\"hang\":true}");
        CompletableFuture<HttpResponse<String>> held = client.confirmAsync("pk-1", "order-0001", 1000, null,
                Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(3)).until(() -> simulator.stats().hangs() == 1);

        client.adminDelete("/admin/faults?operation=confirm");

        assertThatThrownBy(held::join).hasCauseInstanceOf(IOException.class);
        assertThat(client.get("/v1/payments/pk-1").statusCode()).isEqualTo(404);
        await().atMost(Duration.ofSeconds(2)).until(() -> simulator.stats().inFlight() == 0);
    }

    @Test
    void refuseClosesTheGatewayPortWhileTheAdminApiKeepsWorking() throws Exception {
        client.faults("{\"connectionFault\":{\"mode\":\"REFUSE\"}}");

        assertThatThrownBy(() -> client.confirm("pk-1", "order-0001", 1000)).isInstanceOf(ConnectException.class);
        assertThat(json(client.adminGet("/admin/faults")).get("refusingConnections").asBoolean()).isTrue();

        client.adminDelete("/admin/faults");

        assertThat(client.confirm("pk-1", "order-0001", 1000).statusCode()).isEqualTo(200);
    }

    @Test
    void refuseInProcessAlsoClosesKeptAliveConnections() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);

        simulator.faults().set(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse()));
        assertThatThrownBy(() -> client.get("/v1/payments/pk-1")).isInstanceOf(IOException.class);
        simulator.faults().reset();

        assertThat(client.get("/v1/payments/pk-1").statusCode()).isEqualTo(200);
    }

    @Test
    void refuseAlsoClosesAConnectionThatHasNotSentItsRequestYet() throws Exception {
        // A client opened a connection just before the PG went down and writes its request after: a PG process that is
        // down answers nothing on it. A connection that survived the fault would serve
        // confirms for as long as the client kept it alive: a "down" PG would go on approving.
        URI gateway = URI.create(simulator.baseUrl());
        try (Socket early = new Socket(gateway.getHost(), gateway.getPort())) {
            early.setSoTimeout(2_000);
            // Time for the event loop to accept it. Had it not, closing the port resets it in the kernel: "closed" too.
            Thread.sleep(200);

            simulator.faults().set(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse()));
            String body = SimClient.confirmBody("pk-1", "order-0001", 1000);
            early.getOutputStream().write(("POST /v1/payments/confirm HTTP/1.1\r\nHost: pg\r\n"
                    + "Authorization: " + client.authorization() + "\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));

            assertThat(readOrClosed(early)).as("what the early connection got").isEqualTo("closed");
        } finally {
            simulator.faults().reset();
        }
        assertThat(simulator.ledger().paymentForOrder("order-0001")).isEmpty();
    }

    /** The first bytes the server sent, or "closed" if it closed or reset the connection without a word. */
    private static String readOrClosed(Socket socket) throws IOException {
        byte[] buffer = new byte[64];
        try {
            int read = socket.getInputStream().read(buffer);
            return read < 0 ? "closed" : new String(buffer, 0, read, StandardCharsets.US_ASCII);
        } catch (SocketException reset) {
            return "closed";
        }
    }

    @Test
    void resetAbortsTheConnectionAndRecordsNothing() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"connectionFault\":{\"mode\":\"RESET\",\"rate\":1.0}}");

        assertThatThrownBy(() -> client.confirm("pk-1", "order-0001", 1000))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);

        assertThat(simulator.stats().connectionResets()).isEqualTo(1);
        assertThat(client.get("/v1/payments/pk-1").statusCode()).isEqualTo(404);
    }

    @Test
    void injectedServerErrorsRecordNothing() throws Exception {
        java.util.Map<Integer, String> codes = java.util.Map.of(
                500, "FAILED_INTERNAL_SYSTEM_PROCESSING", 502, "BAD_GATEWAY", 503, "SERVICE_UNAVAILABLE");
        for (var expected : codes.entrySet()) {
            client.faults("{\"operation\":\"confirm\",\"errorRate\":1.0,\"errorStatus\":" + expected.getKey() + "}");
            HttpResponse<String> response = client.confirm("pk-" + expected.getKey(), "order-" + expected.getKey() + "00", 1000);
            assertThat(response.statusCode()).isEqualTo(expected.getKey());
            assertThat(json(response).get("code").asText()).isEqualTo(expected.getValue());
            assertThat(json(response).get("message").asText()).isNotBlank();
        }

        assertThat(simulator.ledger().payments()).isEmpty();
        assertThat(json(client.get("/v1/transactions")).get("transactions")).isEmpty();
        assertThat(simulator.stats().serverErrors()).isEqualTo(3);
    }

    @Test
    void errorRateIsAProbability() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"errorRate\":0.5,\"seed\":11}");

        int errors = 0;
        for (int i = 0; i < 100; i++) {
            if (client.confirm("pk-" + i, "order-" + (10_000 + i), 1000).statusCode() == 500) {
                errors++;
            }
        }

        assertThat(errors).isBetween(35, 65);
        assertThat(simulator.ledger().transactions()).hasSize(100 - errors);
    }

    @Test
    void declinesUseTheChosenCodeAndAreBookedAborted() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"declineRate\":1.0,\"declineCode\":\"REJECT_CARD_PAYMENT\"}");

        HttpResponse<String> response = client.confirm("pk-1", "order-0001", 1000);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(json(response).get("code").asText()).isEqualTo("REJECT_CARD_PAYMENT");
        JsonNode payment = json(client.get("/v1/payments/pk-1"));
        assertThat(payment.get("status").asText()).isEqualTo("ABORTED");
        assertThat(payment.get("failure").get("code").asText()).isEqualTo("REJECT_CARD_PAYMENT");
        assertThat(simulator.ledger().transactions()).isEmpty();
        assertThat(simulator.stats().declines()).isEqualTo(1);
    }

    @Test
    void approveThenDropHangsButTheMoneyMovedAndARetryWithTheKeyGetsTheAnswer() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"dropResponseRate\":1.0,\"dropMode\":\"HANG\"}");

        assertThatThrownBy(() -> client.send(client.confirmRequest("pk-1", "order-0001", 1000, "idem-1", CLIENT_TIMEOUT)))
                .isInstanceOf(HttpTimeoutException.class);

        assertThat(json(client.get("/v1/payments/orders/order-0001")).get("status").asText()).isEqualTo("DONE");
        assertThat(json(client.get("/v1/transactions")).get("transactions")).singleElement()
                .satisfies(t -> assertThat(t.get("type").asText()).isEqualTo("APPROVE"));
        HttpResponse<String> retry = client.confirm("pk-1", "order-0001", 1000, "idem-1");
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(json(retry).get("status").asText()).isEqualTo("DONE");
        assertThat(simulator.stats().droppedResponses()).isEqualTo(1);
        assertThat(simulator.ledger().transactions()).hasSize(1);
    }

    @Test
    void approveThenDropCanResetTheConnectionInstead() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"dropResponseRate\":1.0,\"dropMode\":\"RESET\"}");

        assertThatThrownBy(() -> client.confirm("pk-1", "order-0001", 1000))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(HttpTimeoutException.class);

        assertThat(simulator.ledger().payment("pk-1")).hasValueSatisfying(
                p -> assertThat(p.status()).isEqualTo(PaymentStatus.DONE));
        assertThat(simulator.ledger().transactions()).extracting(t -> t.type()).containsExactly(TransactionType.APPROVE);
    }

    @Test
    void dropAlsoLosesCancelAnswersAfterBookingTheCancel() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);
        client.faults("{\"operation\":\"cancel\",\"dropResponseRate\":1.0,\"dropMode\":\"RESET\"}");

        assertThatThrownBy(() -> client.cancel("pk-1", "r")).isInstanceOf(IOException.class);

        assertThat(json(client.get("/v1/payments/pk-1")).get("status").asText()).isEqualTo("CANCELED");
    }

    @Test
    void manyConcurrentHangsCostNoThreads() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"hang\":true}");
        int threadsBefore = Thread.activeCount();

        try (HangingClients hanging = HangingClients.open(simulator.port(), 300)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> simulator.stats().inFlight() == 300);
            assertThat(Thread.activeCount()).isLessThan(threadsBefore + 5);
            assertThat(client.get("/v1/payments/pk-1").statusCode()).as("other operations still answer").isEqualTo(404);

            client.adminDelete("/admin/faults");

            assertThat(hanging.allClosedByServer(Duration.ofSeconds(5))).isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> simulator.stats().inFlight() == 0);
    }

    @Test
    void theSameSeedReplaysTheSameScenarioOverHttp() throws Exception {
        String scenario = "{\"operation\":\"confirm\",\"errorRate\":0.3,\"declineRate\":0.3,"
                + "\"declineCode\":\"INVALID_CARD_NUMBER\",\"seed\":2024}";

        List<Integer> first = run(scenario);
        simulator.reset();
        List<Integer> second = run(scenario);

        assertThat(second).isEqualTo(first);
        assertThat(first).contains(200, 400, 500);
    }

    private static List<Integer> run(String scenario) throws Exception {
        client.faults(scenario);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            statuses.add(client.confirm("pk-" + i, "order-" + (1000 + i), 1000).statusCode());
        }
        return statuses;
    }
}
