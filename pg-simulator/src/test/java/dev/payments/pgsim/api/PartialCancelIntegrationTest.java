package dev.payments.pgsim.api;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.ledger.Transaction;
import dev.payments.pgsim.ledger.TransactionType;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Partial cancels as Toss has them, and their faults, over real HTTP. */
class PartialCancelIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void partialCancelsLeaveABalanceAndTheLastOneCancelsThePayment() throws Exception {
        client.confirm("pk-1", "order-0001", 10_000);

        HttpResponse<String> first = client.cancel("pk-1", "one item", 3_000L, "refund-a");
        HttpResponse<String> second = client.cancel("pk-1", "another item", 2_000L, "refund-b");

        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode afterFirst = json(first);
        assertThat(afterFirst.get("status").asText()).isEqualTo("PARTIAL_CANCELED");
        assertThat(afterFirst.get("balanceAmount").asLong()).isEqualTo(7_000);
        assertThat(afterFirst.get("cancels").get(0).get("cancelAmount").asLong()).isEqualTo(3_000);
        assertThat(afterFirst.get("cancels").get(0).get("refundableAmount").asLong()).isEqualTo(7_000);
        JsonNode afterSecond = json(second);
        assertThat(afterSecond.get("balanceAmount").asLong()).isEqualTo(5_000);
        assertThat(afterSecond.get("cancels")).hasSize(2);
        assertThat(afterSecond.get("cancels").get(1).get("refundableAmount").asLong()).isEqualTo(5_000);

        // cancelAmount absent: everything left.
        JsonNode rest = json(client.cancel("pk-1", "the rest", null, "refund-c"));
        assertThat(rest.get("status").asText()).isEqualTo("CANCELED");
        assertThat(rest.get("balanceAmount").asLong()).isZero();
        assertThat(rest.get("cancels").get(2).get("cancelAmount").asLong()).isEqualTo(5_000);

        // The status query shows the same cancels.
        JsonNode queried = json(client.get("/v1/payments/pk-1"));
        assertThat(queried.get("cancels")).hasSize(3);
        assertThat(queried.get("cancels").get(0).get("cancelReason").asText()).isEqualTo("one item");
        assertThat(simulator.ledger().transactions()).extracting(Transaction::type, Transaction::amount)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(TransactionType.APPROVE, 10_000L),
                        org.assertj.core.groups.Tuple.tuple(TransactionType.CANCEL, 3_000L),
                        org.assertj.core.groups.Tuple.tuple(TransactionType.CANCEL, 2_000L),
                        org.assertj.core.groups.Tuple.tuple(TransactionType.CANCEL, 5_000L));
        HttpResponse<String> more = client.cancel("pk-1", "again", 1L, "refund-d");
        assertThat(more.statusCode()).isEqualTo(400);
        assertThat(json(more).get("code").asText()).isEqualTo("ALREADY_CANCELED_PAYMENT");
    }

    @Test
    void aCancelOverTheRefundableAmountIsRefusedAndBooksNothing() throws Exception {
        client.confirm("pk-1", "order-0001", 10_000);
        client.cancel("pk-1", "most", 8_000L, "refund-a");

        HttpResponse<String> over = client.cancel("pk-1", "too much", 2_001L, "refund-b");

        assertThat(over.statusCode()).isEqualTo(403);
        assertThat(json(over).get("code").asText()).isEqualTo("NOT_CANCELABLE_AMOUNT");
        assertThat(json(client.get("/v1/payments/pk-1")).get("balanceAmount").asLong()).isEqualTo(2_000);
        assertThat(simulator.ledger().transactions()).hasSize(2);
    }

    @Test
    void aRepeatedIdempotencyKeyIsAnsweredWithItsCancelAndBooksOnce() throws Exception {
        client.confirm("pk-1", "order-0001", 10_000);

        HttpResponse<String> first = client.cancel("pk-1", "one item", 3_000L, "refund-a");
        HttpResponse<String> again = client.cancel("pk-1", "one item", 3_000L, "refund-a");
        HttpResponse<String> otherAmount = client.cancel("pk-1", "one item", 4_000L, "refund-a");

        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(json(again).get("balanceAmount").asLong()).isEqualTo(7_000);
        assertThat(json(again).get("cancels")).hasSize(1);
        assertThat(json(first).get("cancels")).hasSize(1);
        assertThat(otherAmount.statusCode()).isEqualTo(422);
        assertThat(json(otherAmount).get("code").asText()).isEqualTo("INVALID_IDEMPOTENCY_KEY");
        assertThat(simulator.ledger().transactions()).hasSize(2);
    }

    @Test
    void aSecondCancelWhileTheFirstIsProcessedIsRefusedAsToss() throws Exception {
        client.confirm("pk-1", "order-0001", 10_000);
        client.faults("{\"operation\":\"cancel\",\"latency\":{\"fixedMs\":800}}");

        CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> send(
                client.cancelRequest("pk-1", "first", 1_000L, "refund-a", Duration.ofSeconds(5))));
        Thread.sleep(300);
        HttpResponse<String> second = client.cancel("pk-1", "second", 1_000L, "refund-b");
        HttpResponse<String> sameKey = client.cancel("pk-1", "first", 1_000L, "refund-a");

        assertThat(second.statusCode()).isEqualTo(403);
        assertThat(json(second).get("code").asText()).isEqualTo("FORBIDDEN_CONSECUTIVE_REQUEST");
        assertThat(sameKey.statusCode()).isEqualTo(409);
        assertThat(json(sameKey).get("code").asText()).isEqualTo("IDEMPOTENT_REQUEST_PROCESSING");
        assertThat(first.get().statusCode()).isEqualTo(200);
        assertThat(json(first.get()).get("balanceAmount").asLong()).isEqualTo(9_000);
        assertThat(simulator.ledger().transactions()).hasSize(2);
    }

    @Test
    void injectedFaultsOnCancelBookNothingOrLoseOnlyTheAnswer() throws Exception {
        client.confirm("pk-1", "order-0001", 10_000);

        client.faults("{\"operation\":\"cancel\",\"errorRate\":1.0,\"errorStatus\":409}");
        HttpResponse<String> busy = client.cancel("pk-1", "r", 1_000L, "refund-a");
        assertThat(busy.statusCode()).isEqualTo(403);
        assertThat(json(busy).get("code").asText()).isEqualTo("FORBIDDEN_CONSECUTIVE_REQUEST");

        client.faults("{\"operation\":\"cancel\",\"errorRate\":1.0,\"errorStatus\":503}");
        assertThat(client.cancel("pk-1", "r", 1_000L, "refund-a").statusCode()).isEqualTo(503);
        assertThat(simulator.ledger().transactions()).hasSize(1);

        // A lost answer: the cancel is booked, the client hears nothing, the status query shows it.
        client.faults("{\"operation\":\"cancel\",\"dropResponseRate\":1.0}");
        assertThatThrownBy(() -> client.send(client.cancelRequest("pk-1", "r", 1_000L, "refund-a",
                Duration.ofMillis(500)))).isInstanceOf(HttpTimeoutException.class);
        client.adminDelete("/admin/faults");
        JsonNode queried = json(client.get("/v1/payments/pk-1"));
        assertThat(queried.get("status").asText()).isEqualTo("PARTIAL_CANCELED");
        assertThat(queried.get("cancels").get(0).get("cancelAmount").asLong()).isEqualTo(1_000);
        // The same key again is answered from the books, not booked twice.
        assertThat(json(client.cancel("pk-1", "r", 1_000L, "refund-a")).get("balanceAmount").asLong()).isEqualTo(9_000);
        assertThat(simulator.ledger().transactions()).hasSize(2);
    }

    private HttpResponse<String> send(java.net.http.HttpRequest request) {
        try {
            return client.send(request);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
