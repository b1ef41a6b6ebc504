package dev.payments.pgsim.ledger;

import static dev.payments.pgsim.testing.SimClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.testing.SimClient;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The books kept in a journal file ({@code --journal}) outlive the simulator: approvals, cancellations, declines and
 * billing keys are all there after a restart on the same file, the listing is the same, a payment that moved money
 * still refuses a second confirm, and a reset is kept too. Without a journal a restart starts from empty books.
 */
class BooksAcrossRestartsIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void aRestartOnTheSameJournalKeepsEveryBooking() throws Exception {
        Path books = dir.resolve("books.jsonl");
        String listing;
        String billingKey;
        try (PgSimulator pg = PgSimulator.start(config(books))) {
            SimClient client = new SimClient(pg);
            assertThat(client.confirm("pk-1", "order-1", 1000).statusCode()).isEqualTo(200);
            assertThat(client.confirm("pk-2", "order-2", 2000).statusCode()).isEqualTo(200);
            assertThat(client.cancel("pk-2", "changed my mind").statusCode()).isEqualTo(200);
            client.faults("{\"operation\":\"confirm\",\"declineRate\":1.0,\"declineCode\":\"REJECT_CARD_PAYMENT\"}");
            assertThat(client.confirm("pk-3", "order-3", 3000).statusCode()).isEqualTo(403);
            billingKey = issue(client, "member-1");
            listing = client.get("/v1/transactions").body();
        }

        try (PgSimulator pg = PgSimulator.start(config(books))) {
            SimClient client = new SimClient(pg);
            assertThat(client.get("/v1/transactions").body()).isEqualTo(listing);
            assertThat(json(client.get("/v1/transactions")).get("transactions")).hasSize(3);
            assertThat(status(client, "pk-1")).isEqualTo("DONE");
            assertThat(status(client, "pk-2")).isEqualTo("CANCELED");
            assertThat(status(client, "pk-3")).isEqualTo("ABORTED");
            assertThat(client.confirm("pk-1b", "order-1", 1000).statusCode()).as("order-1 is paid already").isEqualTo(400);
            assertThat(charge(client, billingKey, "member-1", "renewal-1").statusCode()).isEqualTo(200);
            assertThat(client.cancel("pk-1", "refund after the restart").statusCode()).isEqualTo(200);
            pg.resetLedger();
        }

        try (PgSimulator pg = PgSimulator.start(config(books))) {
            SimClient client = new SimClient(pg);
            assertThat(json(client.get("/v1/transactions")).get("transactions")).as("the reset is kept").isEmpty();
            assertThat(charge(client, billingKey, "member-1", "renewal-2").statusCode()).as("keys outlive resets")
                    .isEqualTo(200);
        }
    }

    @Test
    void aLastLineCutShortByACrashIsDroppedAndADamagedOneElsewhereStopsTheStart() throws Exception {
        Path books = dir.resolve("books.jsonl");
        try (PgSimulator pg = PgSimulator.start(config(books))) {
            assertThat(new SimClient(pg).confirm("pk-1", "order-1", 1000).statusCode()).isEqualTo(200);
        }
        Files.writeString(books, "{\"entry\":\"transaction\",\"transac", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        try (PgSimulator pg = PgSimulator.start(config(books))) {
            SimClient client = new SimClient(pg);
            assertThat(status(client, "pk-1")).isEqualTo("DONE");
            assertThat(client.confirm("pk-2", "order-2", 2000).statusCode()).isEqualTo(200);
        }
        try (PgSimulator pg = PgSimulator.start(config(books))) {
            assertThat(json(new SimClient(pg).get("/v1/transactions")).get("transactions")).hasSize(2);
        }

        Files.writeString(books, "not json\n" + Files.readString(books), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> PgSimulator.start(config(books))).hasMessageContaining("damaged at line 1");
    }

    @Test
    void withoutAJournalARestartStartsFromEmptyBooks() throws Exception {
        try (PgSimulator pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0))) {
            assertThat(new SimClient(pg).confirm("pk-1", "order-1", 1000).statusCode()).isEqualTo(200);
        }
        try (PgSimulator pg = PgSimulator.start(PgSimulatorConfig.defaults().withPort(0))) {
            assertThat(json(new SimClient(pg).get("/v1/transactions")).get("transactions")).isEmpty();
        }
    }

    private static PgSimulatorConfig config(Path books) {
        return PgSimulatorConfig.defaults().withPort(0).withJournal(books);
    }

    private static String status(SimClient client, String paymentKey) throws IOException {
        JsonNode payment = json(client.get("/v1/payments/" + paymentKey));
        return payment.get("status").asText();
    }

    private static String issue(SimClient client, String customerKey) throws IOException {
        HttpResponse<String> issued = client.send(client.gateway("/v1/billing/authorizations/issue", Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerKey\":\"" + customerKey + "\",\"authKey\":\"a\"}"))
                .build());
        assertThat(issued.statusCode()).isEqualTo(200);
        return json(issued).get("billingKey").asText();
    }

    private static HttpResponse<String> charge(SimClient client, String billingKey, String customerKey, String orderId)
            throws IOException {
        return client.send(client.gateway("/v1/billing/" + billingKey, Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", "charge-" + orderId)
                .POST(HttpRequest.BodyPublishers.ofString("{\"customerKey\":\"" + customerKey + "\",\"orderId\":\""
                        + orderId + "\",\"amount\":9900,\"orderName\":\"Monthly plan\"}"))
                .build());
    }
}
