package dev.payments.pgsim.api;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimClient;
import dev.payments.pgsim.testing.SimulatorIntegrationTest;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TransactionListingIntegrationTest extends SimulatorIntegrationTest {

    @BeforeAll
    static void start() {
        startSimulator(PgSimulatorConfig.defaults().withPort(0));
    }

    @Test
    void theListingIsExactlyWhatWasApprovedAndCancelledPagedInTimeOrder() throws Exception {
        List<String> expected = new ArrayList<>();
        client.faults("{\"operation\":\"confirm\",\"declineRate\":0.3,\"seed\":3}");
        for (int i = 0; i < 25; i++) {
            String paymentKey = "pk-" + i;
            HttpResponse<String> confirmed = client.confirm(paymentKey, "order-" + (1000 + i), 1000 + i);
            if (confirmed.statusCode() == 200) {
                expected.add("APPROVE " + paymentKey + " " + (1000 + i));
                if (i % 3 == 0) {
                    client.cancel(paymentKey, "test");
                    expected.add("CANCEL " + paymentKey + " " + (1000 + i));
                }
            }
        }

        List<JsonNode> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = json(client.get("/v1/transactions?limit=4" + (cursor == null ? "" : "&startingAfter=" + cursor)));
            page.get("transactions").forEach(listed::add);
            cursor = page.get("hasNext").asBoolean() ? page.get("nextCursor").asText() : null;
            pages++;
        } while (cursor != null);

        assertThat(expected).hasSizeGreaterThan(15);
        assertThat(listed).extracting(t -> t.get("type").asText() + " " + t.get("paymentKey").asText() + " "
                + t.get("amount").asLong()).containsExactlyElementsOf(expected);
        assertThat(pages).isEqualTo((expected.size() + 3) / 4);
        assertThat(listed).allSatisfy(t -> assertThat(t.get("currency").asText()).isEqualTo("KRW"));
        assertThat(listed).extracting(t -> t.get("transactionKey").asText()).doesNotHaveDuplicates();
        assertThat(listed).extracting(t -> Instant.from(java.time.OffsetDateTime.parse(t.get("transactedAt").asText())))
                .isSorted();
    }

    @Test
    void fromIsInclusiveAndToIsExclusive() throws Exception {
        client.confirm("pk-1", "order-0001", 1000);
        Instant approvedAt = simulator.ledger().transactions().get(0).transactedAt();

        assertThat(listing("from=" + approvedAt + "&to=" + approvedAt.plusMillis(1))).hasSize(1);
        assertThat(listing("from=" + approvedAt.plusMillis(1))).isEmpty();
        assertThat(listing("to=" + encode(approvedAt.atOffset(java.time.ZoneOffset.ofHours(9)).toString()))).isEmpty();
    }

    @Test
    void rejectsBadParameters() throws Exception {
        assertThat(client.get("/v1/transactions?limit=0").statusCode()).isEqualTo(400);
        assertThat(client.get("/v1/transactions?limit=1001").statusCode()).isEqualTo(400);
        assertThat(client.get("/v1/transactions?from=yesterday").statusCode()).isEqualTo(400);
        HttpResponse<String> cursor = client.get("/v1/transactions?startingAfter=tx_nope");
        assertThat(cursor.statusCode()).isEqualTo(400);
        assertThat(json(cursor).get("message").asText()).contains("startingAfter");
    }

    private static List<JsonNode> listing(String query) throws Exception {
        HttpResponse<String> response = client.get("/v1/transactions?" + query);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<JsonNode> transactions = new ArrayList<>();
        json(response).get("transactions").forEach(transactions::add);
        return transactions;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
