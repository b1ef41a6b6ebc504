package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.RelayedGoldenEvents.Relayed;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.contracts.Topics;
import dev.payments.ops.PaymentsOps;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.Prometheus;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import dev.payments.reconciliation.support.Security;
import dev.payments.reconciliation.support.TestKafka;
import dev.payments.testsupport.identity.AuthServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;

import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Dead letters an operator can use, on a real broker and this service's real database, with its own consumer
 * running throughout: an event its projection cannot apply (a fault planted in its database for chosen orders: not
 * transient, so it is retried a few times and parked) is listed with its reason and times; once the cause is gone it
 * is re-driven through the group's re-drive topic and applied once; a second re-drive changes nothing; the operator
 * is recorded. One order's events replayed to the group: only what it missed takes effect. The operator's command
 * line is run against the service as the runbooks have it. Another token without the scope is refused.
 */
@TestPropertySource(properties = {
        "reconciliation.replay.consumers.[order.events]=reconciliation-redrive-it",
        "reconciliation.replay.consumers.[payment.events]=reconciliation-redrive-it"})
class DeadLetterRedriveIntegrationTest extends ReconciliationServiceTestBase {

    private static final String GROUP = "reconciliation-redrive-it";

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_redrive", GROUP);
    }

    @Autowired
    JdbcClient jdbc;

    @Test
    void aParkedEventIsListedRedrivenToItsGroupAppliedOnceAndListedAsRedriven() throws Exception {
        plantFault();
        AnOrder single = anOrder();
        AnOrder twoEvents = anOrder();
        block(single);
        block(twoEvents);
        Relayed created = RelayedGoldenEvents.publish(single.created());
        Instant beforeFirst = Instant.now();
        Relayed otherCreated = RelayedGoldenEvents.publish(twoEvents.created());
        Relayed otherPending = RelayedGoldenEvents.publish(twoEvents.pending());

        // The class's other test may leave a letter of its own: this one counts its three.
        List<String> ours = List.of(created.envelope().eventId().toString(),
                otherCreated.envelope().eventId().toString(), otherPending.envelope().eventId().toString());
        JsonNode waiting = await().atMost(EVENTUALLY).until(() -> list(""),
                page -> page.path("letters").findValuesAsText("eventId").containsAll(ours));
        int waitingBefore = waiting.path("waiting").asInt();
        long copiesBefore = recordsOn(Topics.redrive(Topics.ORDER_EVENTS, GROUP));
        JsonNode letter = letter(waiting, created);
        assertThat(letter.path("status").asText()).isEqualTo("WAITING");
        assertThat(letter.path("orderId").asText()).isEqualTo(single.orderId.toString());
        assertThat(letter.path("type").asText()).isEqualTo("OrderCreated");
        assertThat(letter.path("topic").asText()).isEqualTo(Topics.ORDER_EVENTS);
        assertThat(letter.path("kind").asText()).as("failed its retries").isEqualTo("unclassified");
        assertThat(letter.path("message").asText()).contains("planted fault");
        assertThat(letter.path("original").path("topic").asText()).isEqualTo(Topics.ORDER_EVENTS);
        assertThat(letter.path("original").path("offset").asLong()).isEqualTo(created.offset());
        assertThat(letter.path("deadLettered").asInt()).isEqualTo(1);
        Instant first = Instant.parse(letter.path("firstFailure").asText());
        Instant last = Instant.parse(letter.path("lastFailure").asText());
        assertThat(first).isBefore(last).as("retried in between").isAfterOrEqualTo(beforeFirst.minusSeconds(5));
        assertThat(api.get("/api/reconciliation/orders/" + single.orderId).isMissingNode())
                .as("its effect never happened").isTrue();
        assertThat(list("?status=WAITING&size=1").path("letters")).hasSize(1);
        assertThat(list("?status=WAITING&size=1").path("total").asInt()).isEqualTo(waitingBefore)
                .isGreaterThanOrEqualTo(3);

        // The cause is fixed; the consumer never stopped.
        jdbc.sql("DELETE FROM redrive_it_blocked").update();
        ResponseEntity<JsonNode> redriven = api.operator(HttpMethod.POST,
                "/api/dead-letters/" + GROUP + "/" + created.envelope().eventId() + "/redrive", null);
        assertThat(redriven.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(redriven.getBody().path("redriven").asBoolean()).isTrue();
        assertThat(redriven.getBody().path("redrivenBy").asText()).as("the token's subject").isEqualTo("operator-1");
        api.awaitOrder(single, "CREATED");

        ResponseEntity<JsonNode> ofOrder = api.operator(HttpMethod.POST,
                "/api/dead-letters/" + GROUP + "/orders/" + twoEvents.orderId + "/redrive", null);
        assertThat(ofOrder.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(ofOrder.getBody().path("redriven").asInt()).isEqualTo(2);
        assertThat(StreamSupport.stream(ofOrder.getBody().path("letters").spliterator(), false)
                .map(l -> l.path("eventId").asText())).as("in the order they first failed").containsExactly(
                otherCreated.envelope().eventId().toString(), otherPending.envelope().eventId().toString());
        api.awaitOrder(twoEvents, "PAYMENT_PENDING");

        // The operator's command line, as the runbook has it, against this service.
        JsonNode after = cli("dead-letters", "list", GROUP);
        assertThat(after.path("waiting").asInt()).isEqualTo(waitingBefore - 3);
        assertThat(letter(after, created).path("status").asText()).isEqualTo("REDRIVEN");
        assertThat(letter(after, created).path("redrivenBy").asText()).isEqualTo("operator-1");

        // Again: nothing is sent, the earlier re-drive is named.
        ResponseEntity<JsonNode> again = api.operatorAs("operator-2", HttpMethod.POST,
                "/api/dead-letters/" + GROUP + "/" + created.envelope().eventId() + "/redrive", null,
                "dead-letters:write");
        assertThat(again.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(again.getBody().path("redriven").asBoolean()).isFalse();
        assertThat(again.getBody().path("redrivenBy").asText()).isEqualTo("operator-1");
        assertThat(recordsOn(Topics.redrive(Topics.ORDER_EVENTS, GROUP)) - copiesBefore).as("one copy per letter")
                .isEqualTo(3);
        JsonNode order = api.get("/api/reconciliation/orders/" + single.orderId);
        assertThat(order.path("eventsApplied").asInt()).as("applied once").isEqualTo(1);
        assertThat(Prometheus.scrape(management,
                "reconciliation_dead_letters_redriven_total{group=\"" + GROUP + "\"}", -1)).isEqualTo(3);
        assertThat(Prometheus.scrape(management,
                "reconciliation_dead_letters_waiting{group=\"" + GROUP + "\"}", -1)).isEqualTo(waitingBefore - 3);
    }

    @Test
    void anOrdersEventsAreReplayedToOneGroupAndOnlyWhatItMissedTakesEffect() throws Exception {
        plantFault();
        AnOrder order = anOrder();
        Relayed created = RelayedGoldenEvents.publish(order.created());
        api.awaitOrder(order, "CREATED");
        block(order);
        Relayed pending = RelayedGoldenEvents.publish(order.pending());
        await().atMost(EVENTUALLY).until(() -> list("").path("letters").findValuesAsText("eventId")
                .contains(pending.envelope().eventId().toString()));
        jdbc.sql("DELETE FROM redrive_it_blocked").update();

        JsonNode dryRun = cli("replay", "order", order.orderId.toString(), "--group", GROUP);
        assertThat(dryRun.path("applied").asBoolean()).isFalse();
        assertThat(dryRun.path("wouldApply").asInt()).isEqualTo(1);
        assertThat(verdicts(dryRun)).containsExactly("ALREADY_APPLIED", "DEAD_LETTERED");
        assertThat(api.get("/api/reconciliation/orders/" + order.orderId).path("status").asText())
                .as("a dry run changes nothing").isEqualTo("CREATED");

        JsonNode applied = cli("replay", "order", order.orderId.toString(), "--group", GROUP, "--apply");
        assertThat(applied.path("applied").asBoolean()).isTrue();
        assertThat(applied.path("sent").asInt()).isEqualTo(2);
        assertThat(applied.path("requestedBy").asText()).isEqualTo("operator-1");
        api.awaitOrder(order, "PAYMENT_PENDING");
        JsonNode again = cli("replay", "order", order.orderId.toString(), "--group", GROUP, "--apply");
        assertThat(verdicts(again)).containsExactly("ALREADY_APPLIED", "ALREADY_APPLIED");
        await().atMost(EVENTUALLY).until(() -> recordsOn(Topics.redrive(Topics.ORDER_EVENTS, GROUP)) >= 4);
        assertThat(api.get("/api/reconciliation/orders/" + order.orderId).path("eventsApplied").asInt())
                .as("each event applied once, replayed twice").isEqualTo(2);
        assertThat(created.envelope().eventId()).isNotNull();
    }

    @Test
    void withoutTheScopeOrForAnUnknownGroupOrLetterNothingIsDone() {
        String readOnly = AuthServer.shared().operator("operator-3", "reconciliation:read", "events:replay");
        assertThat(as(readOnly, HttpMethod.GET, "/api/dead-letters/" + GROUP).getStatusCode())
                .isEqualTo(HttpStatus.FORBIDDEN);
        String reader = AuthServer.shared().operator("operator-3", "dead-letters:read");
        assertThat(as(reader, HttpMethod.GET, "/api/dead-letters/" + GROUP).getStatusCode()).isEqualTo(HttpStatus.OK);
        ResponseEntity<JsonNode> refused = as(reader, HttpMethod.POST,
                "/api/dead-letters/" + GROUP + "/" + UUID.randomUUID() + "/redrive");
        assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(refused.getBody().path("code").asText()).isEqualTo("INSUFFICIENT_SCOPE");

        ResponseEntity<JsonNode> unknownGroup = api.operator(HttpMethod.GET, "/api/dead-letters/order-servcie", null);
        assertThat(unknownGroup.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(unknownGroup.getBody().path("code").asText()).isEqualTo("UNKNOWN_CONSUMER_GROUP");
        ResponseEntity<JsonNode> noLetter = api.operator(HttpMethod.POST,
                "/api/dead-letters/" + GROUP + "/" + UUID.randomUUID() + "/redrive", null);
        assertThat(noLetter.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(noLetter.getBody().path("code").asText()).isEqualTo("DEAD_LETTER_NOT_FOUND");
        ResponseEntity<JsonNode> badPage = api.operator(HttpMethod.GET, "/api/dead-letters/" + GROUP + "?size=0", null);
        assertThat(badPage.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(badPage.getBody().path("code").asText()).isEqualTo("VALIDATION_FAILED");
    }

    /** A bug stand-in: writing the view of a blocked order fails with an error that is not the database being away. */
    private void plantFault() {
        jdbc.sql("CREATE TABLE IF NOT EXISTS redrive_it_blocked (order_id uuid PRIMARY KEY)").update();
        jdbc.sql("""
                CREATE OR REPLACE FUNCTION redrive_it_fault() RETURNS trigger AS $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM redrive_it_blocked WHERE order_id = NEW.order_id) THEN
                        RAISE EXCEPTION 'planted fault for order %', NEW.order_id;
                    END IF;
                    RETURN NEW;
                END $$ LANGUAGE plpgsql""").update();
        jdbc.sql("DROP TRIGGER IF EXISTS redrive_it_fault ON order_view").update();
        jdbc.sql("""
                CREATE TRIGGER redrive_it_fault BEFORE INSERT OR UPDATE ON order_view
                FOR EACH ROW EXECUTE FUNCTION redrive_it_fault()""").update();
    }

    private void block(AnOrder order) {
        jdbc.sql("INSERT INTO redrive_it_blocked (order_id) VALUES (:id)").param("id", order.orderId).update();
    }

    private JsonNode list(String query) {
        ResponseEntity<JsonNode> page = api.operator(HttpMethod.GET, "/api/dead-letters/" + GROUP + query, null);
        assertThat(page.getStatusCode()).isEqualTo(HttpStatus.OK);
        return page.getBody();
    }

    private static JsonNode letter(JsonNode page, Relayed event) {
        return StreamSupport.stream(page.path("letters").spliterator(), false)
                .filter(l -> l.path("eventId").asText().equals(event.envelope().eventId().toString()))
                .findFirst().orElseThrow(() -> new AssertionError("no letter of " + event.envelope().eventId()
                        + " in " + page));
    }

    private ResponseEntity<JsonNode> as(String token, HttpMethod method, String path) {
        HttpHeaders headers = new HttpHeaders();
        headers.add(Security.AS, token);
        return http.exchange(path, method, new HttpEntity<>(null, headers), JsonNode.class);
    }

    private static List<String> verdicts(JsonNode replay) {
        return StreamSupport.stream(replay.path("events").spliterator(), false)
                .map(e -> e.path("verdict").asText()).toList();
    }

    /** Runs the operator's command line against this service with the operator's token; its JSON answer. */
    private JsonNode cli(String... args) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> line = new java.util.ArrayList<>(List.of("--url", "http://127.0.0.1:" + port,
                "--token", Security.operatorToken()));
        line.addAll(List.of(args));
        int exit = PaymentsOps.run(new PrintWriter(out, true), new PrintWriter(err, true), line.toArray(String[]::new));
        assertThat(exit).as("exit code; stderr: %s", err).isZero();
        return new ObjectMapper().readTree(out.toString());
    }

    private static long recordsOn(String topic) throws Exception {
        try (Admin admin = TestKafka.admin()) {
            TopicPartition partition = new TopicPartition(topic, 0);
            return admin.listOffsets(Map.of(partition, OffsetSpec.latest())).all().get().get(partition).offset();
        }
    }
}
