package dev.payments.pgsim.api;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.ledger.TransactionType;
import dev.payments.pgsim.testing.SimClient;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class IdempotencyIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void fiftyConcurrentDuplicatesApproveOnceAndAllGetTheFirstAnswer() throws Exception {
        // Latency keeps the first request in flight while the duplicates arrive.
        client.faults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":300}}");

        List<CompletableFuture<HttpResponse<String>>> responses = IntStream.range(0, 50)
                .mapToObj(i -> client.confirmAsync("pk-1", "order-0001", 1000, "idem-1", Duration.ofSeconds(10)))
                .toList();
        List<HttpResponse<String>> answers = responses.stream().map(CompletableFuture::join).toList();

        assertThat(answers).allSatisfy(r -> assertThat(r.statusCode()).isEqualTo(200));
        assertThat(answers).extracting(HttpResponse::body).containsOnly(answers.get(0).body());
        assertThat(json(answers.get(0)).get("status").asText()).isEqualTo("DONE");
        assertThat(json(client.get("/v1/transactions")).get("transactions")).singleElement()
                .satisfies(t -> assertThat(t.get("type").asText()).isEqualTo("APPROVE"));
        assertThat(simulator.stats().approvals()).isEqualTo(1);
        assertThat(simulator.stats().idempotentReplays()).isEqualTo(49);
    }

    @Test
    void concurrentConfirmsOfOneOrderUnderDifferentKeysApproveOnce() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"latency\":{\"fixedMs\":200}}");

        List<HttpResponse<String>> answers = IntStream.range(0, 20)
                .mapToObj(i -> client.confirmAsync("pk-" + (i % 4), "order-0001", 1000, i % 2 == 0 ? "idem-" + i : null,
                        Duration.ofSeconds(10)))
                .toList().stream().map(CompletableFuture::join).toList();

        assertThat(answers).filteredOn(r -> r.statusCode() == 200).hasSize(1);
        assertThat(answers).filteredOn(r -> r.statusCode() != 200)
                .allSatisfy(r -> assertThat(json(r).get("code").asText()).isEqualTo("ALREADY_PROCESSED_PAYMENT"));
        assertThat(json(client.get("/v1/transactions")).get("transactions")).hasSize(1);
    }

    @Test
    void aLaterRetryGetsTheByteIdenticalFirstAnswer() throws Exception {
        HttpResponse<String> first = client.confirm("pk-1", "order-0001", 1000, "idem-1");
        HttpResponse<String> retry = client.confirm("pk-1", "order-0001", 1000, "idem-1");

        assertThat(retry.statusCode()).isEqualTo(first.statusCode());
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(simulator.ledger().transactions()).hasSize(1);
    }

    @Test
    void theSameKeyWithADifferentBodyIsRejected() throws Exception {
        client.confirm("pk-1", "order-0001", 1000, "idem-1");

        HttpResponse<String> differentAmount = client.confirm("pk-1", "order-0001", 2000, "idem-1");
        HttpResponse<String> differentOrder = client.confirm("pk-2", "order-0002", 1000, "idem-1");

        assertThat(differentAmount.statusCode()).isEqualTo(422);
        assertThat(json(differentAmount).get("code").asText()).isEqualTo("INVALID_IDEMPOTENCY_KEY");
        assertThat(differentOrder.statusCode()).isEqualTo(422);
        assertThat(simulator.ledger().payment("pk-2")).isEmpty();
    }

    @Test
    void aDeclineIsReplayedNotRetried() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"declineRate\":1.0,\"declineCode\":\"EXCEED_MAX_CARD_LIMIT\"}");
        HttpResponse<String> first = client.confirm("pk-1", "order-0001", 1000, "idem-1");
        client.faults("{\"operation\":\"confirm\"}");

        HttpResponse<String> retry = client.confirm("pk-1", "order-0001", 1000, "idem-1");

        assertThat(first.statusCode()).isEqualTo(400);
        assertThat(json(first).get("code").asText()).isEqualTo("EXCEED_MAX_CARD_LIMIT");
        assertThat(retry.statusCode()).isEqualTo(400);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(json(client.get("/v1/payments/pk-1")).get("status").asText()).isEqualTo("ABORTED");
    }

    @Test
    void anInjected5xxStoresNothingSoARetryWithTheSameKeyIsProcessed() throws Exception {
        client.faults("{\"operation\":\"confirm\",\"errorRate\":1.0}");
        HttpResponse<String> failed = client.confirm("pk-1", "order-0001", 1000, "idem-1");
        client.faults("{\"operation\":\"confirm\"}");

        HttpResponse<String> retry = client.confirm("pk-1", "order-0001", 1000, "idem-1");

        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(retry.statusCode()).isEqualTo(200);
        assertThat(simulator.ledger().transactions()).extracting(t -> t.type()).containsExactly(TransactionType.APPROVE);
    }
}
