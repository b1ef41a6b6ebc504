package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.Money;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.pgsim.fault.ConnectionFault;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.PgTestClient;
import dev.payments.reconciliation.support.Prometheus;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import dev.payments.reconciliation.support.Security;
import dev.payments.testsupport.identity.AuthServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.StreamSupport;

import static dev.payments.reconciliation.support.AnOrder.aRenewalCharge;
import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger audit against the real in-process PG simulator, whose books are filled through its real API (confirm,
 * cancel, a declined confirm), and a projection filled through real Kafka events — every outcome of field report 000
 * once: PAID, compensated, the PG's CANCELED -> FAILED branch, an incident, an approval in flight, the PG keeping money
 * of a payment we recorded as failed, and an approval we recorded that the PG never made. The in-flight window (the
 * settle deadline) and the long deadline are shortened to seconds; the listing is read two transactions per page.
 */
@TestPropertySource(properties = {"reconciliation.settler.settle-deadline=3s",
        "reconciliation.incidents.unresolved-after=4s", "reconciliation.ledger.page-size=2"})
class LedgerAuditIntegrationTest extends ReconciliationServiceTestBase {

    private static final Duration IN_FLIGHT = Duration.ofSeconds(3);
    private static final Duration ESCALATE = IN_FLIGHT.plusSeconds(4);

    private static PgSimulator simulator;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_ledger", "reconciliation-ledger-it");
        simulator = pgSimulator(registry);
    }

    @AfterAll
    static void stop() {
        simulator.close();
    }

    @Autowired
    OpenIncident openIncident;

    @Test
    void everyPgTransactionIsAccountedForAndTheIdentityHoldsOnceMismatchesBecomeIncidents() throws Exception {
        PgTestClient pg = new PgTestClient(simulator.baseUrl(), PgSimulatorConfig.DEFAULT_SECRET_KEY);
        Instant start = Instant.now().minusSeconds(1);

        // A: approved, paid.
        AnOrder paid = anOrder(15_000);
        PgTestClient.Confirmed a = pg.confirm(paid);
        assertThat(a.status()).isEqualTo("DONE");
        publish(paid.created(), paid.requested(), paid.pending(), paid.approved(a.transactionKey(), a.approvedAt()),
                paid.paid());
        Instant afterFirst = Instant.now();

        // B: the answer was lost, the customer was told FAILED, the sync compensated: CANCELED here and at the PG.
        AnOrder compensated = anOrder(21_000);
        pg.confirm(compensated);
        pg.cancel(compensated, "COMPENSATION: customer was told the payment failed");
        publish(compensated.created(), compensated.requested(), compensated.pending(), compensated.unknown(),
                compensated.canceled("COMPENSATION", Instant.now()), compensated.orderFailed("PAYMENT_CANCELED"));

        // C: 000's missing branch: the PG says CANCELED, the payment is FAILED, the order FAILED.
        AnOrder pgCanceled = anOrder(30_000);
        pg.confirm(pgCanceled);
        pg.cancel(pgCanceled, "cancelled in the PG console");
        publish(pgCanceled.created(), pgCanceled.requested(), pgCanceled.pending(), pgCanceled.unknown(),
                pgCanceled.failed("PG_CANCELED"), pgCanceled.orderFailed("PAYMENT_FAILED"));

        // D: the PG holds the money and the compensating cancel keeps failing: an incident accounts for it.
        AnOrder held = anOrder(44_000);
        pg.confirm(held);
        publish(held.created(), held.requested(), held.pending(), held.unknown());
        openIncident.open(Incident.open(IncidentReason.COMPENSATION_FAILED, new PaymentId(held.paymentId),
                new OrderId(held.orderId), new Money(held.amount, "KRW"), null, "cancel refused 5 times", 5,
                Instant.now()));

        // F: we recorded FAILED, the PG kept the money: the customer was told "failed" and was charged.
        AnOrder toldFailed = anOrder(12_000);
        PgTestClient.Confirmed f = pg.confirm(toldFailed);
        publish(toldFailed.created(), toldFailed.requested(), toldFailed.pending(),
                toldFailed.failed("PG_CONNECT_FAILED"));

        // G: an approval in our books the PG never made.
        AnOrder invented = anOrder(9_000);
        publish(invented.created(), invented.requested(), invented.pending(),
                invented.approved("tx_nobody_booked", Instant.now()), invented.paid());

        // R: a renewal run's charge of a subscription period, approved: its payment's events only, no order exists.
        AnOrder renewal = aRenewalCharge();
        PgTestClient.Confirmed renewed = pg.confirm(renewal);
        publish(renewal.requested(), renewal.approved(renewed.transactionKey(), renewed.approvedAt()));

        // H: declined at the PG: no money moved, nothing on the books to account for.
        simulator.faults().set(FaultSpec.none(Operation.CONFIRM).withDecline(1.0, DeclineReason.REJECT_CARD_PAYMENT));
        AnOrder declined = anOrder(5_000);
        assertThat(pg.confirm(declined).httpStatus()).isEqualTo(403);
        simulator.faults().reset();
        publish(declined.created(), declined.requested(), declined.pending(), declined.declined(),
                declined.orderFailed("PAYMENT_DECLINED"));
        Instant lastBooked = Instant.now();

        api.awaitOrder(paid, "PAID");
        api.awaitOrder(compensated, "FAILED");
        api.awaitOrder(pgCanceled, "FAILED");
        api.awaitOrder(held, "PAYMENT_PENDING");
        api.awaitPayment(held, "UNKNOWN");
        api.awaitPayment(toldFailed, "FAILED");
        api.awaitOrder(invented, "PAID");
        api.awaitOrder(declined, "FAILED");
        api.awaitPayment(renewal, "APPROVED");
        sleepUntil(lastBooked.plus(IN_FLIGHT).plusMillis(500));

        // E: approved just now, no event yet: in flight.
        AnOrder inFlight = anOrder(18_000);
        PgTestClient.Confirmed e = pg.confirm(inFlight);

        JsonNode ledger = api.get("/api/reconciliation/ledger?refresh=true");
        assertThat(ledger.path("stored").asBoolean()).isTrue();
        assertThat(ledger.path("pgApprovals").asLong()).isEqualTo(7);
        assertThat(ledger.path("pgCancels").asLong()).isEqualTo(2);
        assertThat(ledger.path("paidOrders").asLong()).isEqualTo(1);
        assertThat(ledger.path("renewals").asLong()).isEqualTo(1);
        assertThat(ledger.path("cancellations").asLong()).isEqualTo(2);
        assertThat(ledger.path("incidents").asLong()).isEqualTo(1);
        assertThat(ledger.path("inFlight").asLong()).isEqualTo(1);
        assertThat(ledger.path("unmatched").asLong()).isEqualTo(1);
        assertThat(ledger.path("holds").asBoolean()).isFalse();
        assertThat(ledger.path("identity").asText())
                .isEqualTo("7 PG approvals = 1 PAID + 1 renewals + 2 cancellations + 1 incidents + 1 in flight + 1 unmatched");
        JsonNode notApproved = mismatch(ledger, "PAYMENT_NOT_APPROVED");
        assertThat(notApproved.path("transactionKey").asText()).isEqualTo(f.transactionKey());
        assertThat(notApproved.path("orderId").asText()).isEqualTo(toldFailed.orderId.toString());
        assertThat(notApproved.path("paymentKey").asText()).isEqualTo(toldFailed.paymentKey);
        assertThat(notApproved.path("paymentId").asText()).isEqualTo(toldFailed.paymentId.toString());
        assertThat(notApproved.path("amount").asLong()).isEqualTo(12_000);
        JsonNode missingAtPg = mismatch(ledger, "NO_PG_APPROVAL");
        assertThat(missingAtPg.path("transactionKey").asText()).isEqualTo("tx_nobody_booked");
        assertThat(ledger.path("mismatches")).hasSize(2);
        assertThat(scrape("ledger_mismatches")).isEqualTo(2);
        assertThat(scrape("ledger_identity_holds")).isZero();
        assertThat(scrape("ledger_identity_terms{term=\"pg_approvals\"}")).isEqualTo(7);
        assertThat(scrape("ledger_identity_terms{term=\"renewals\"}")).isEqualTo(1);
        assertThat(scrape("ledger_identity_terms{term=\"cancellations\"}")).isEqualTo(2);
        assertThat(scrape("ledger_identity_terms{term=\"in_flight\"}")).isEqualTo(1);
        assertThat(Prometheus.httpClientCalls(management, "GET", "/v1/transactions?"))
                .as("the listing's pages are observed, as every call of Boot's RestClient.Builder is").isPositive();

        // Without refresh: the stored result.
        assertThat(micros(api.get("/api/reconciliation/ledger").path("auditedAt")))
                .isEqualTo(micros(ledger.path("auditedAt")));

        // An investigation over an explicit window: only A, not stored, the gauge unmoved.
        JsonNode window = api.get("/api/reconciliation/ledger?from=" + start + "&to=" + afterFirst);
        assertThat(window.path("stored").asBoolean()).isFalse();
        assertThat(window.path("pgApprovals").asLong()).isEqualTo(1);
        assertThat(window.path("paidOrders").asLong()).isEqualTo(1);
        assertThat(scrape("ledger_mismatches")).isEqualTo(2);

        // Reading the stored audit is a read; running one (refresh, a window) is an action of its own scope.
        org.springframework.http.HttpHeaders readOnly = new org.springframework.http.HttpHeaders();
        readOnly.set(Security.AS, AuthServer.shared()
                .operator("auditor-1", "reconciliation:read"));
        assertThat(http.exchange("/api/reconciliation/ledger", HttpMethod.GET,
                new org.springframework.http.HttpEntity<>(readOnly), JsonNode.class).getStatusCode()).isEqualTo(HttpStatus.OK);
        ResponseEntity<JsonNode> refreshRefused = http.exchange("/api/reconciliation/ledger?refresh=true",
                HttpMethod.GET, new org.springframework.http.HttpEntity<>(readOnly), JsonNode.class);
        assertThat(refreshRefused.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(refreshRefused.getBody().path("code").asText()).isEqualTo("INSUFFICIENT_SCOPE");

        // The PG's books cannot be read: a 502 with a code, the previous result stands.
        simulator.faults().set(FaultSpec.none(Operation.ALL).withConnectionFault(ConnectionFault.refuse()));
        ResponseEntity<JsonNode> unreadable = http.getForEntity("/api/reconciliation/ledger?refresh=true",
                JsonNode.class);
        simulator.faults().reset();
        assertThat(unreadable.getStatusCode()).isEqualTo(HttpStatus.BAD_GATEWAY);
        assertThat(unreadable.getBody().path("code").asText()).isEqualTo("PG_LISTING_FAILED");
        assertThat(scrape("ledger_mismatches")).isEqualTo(2);

        // E's events arrive: it is a PAID order now.
        publish(inFlight.created(), inFlight.requested(), inFlight.pending(),
                inFlight.approved(e.transactionKey(), e.approvedAt()), inFlight.paid());
        api.awaitOrder(inFlight, "PAID");

        // The finance export over the period: every PG transaction with what it matched, the audit's totals.
        Instant exportTo = Instant.now().plusSeconds(1);
        JsonNode audited = api.get("/api/reconciliation/ledger?from=" + start + "&to=" + exportTo);
        ResponseEntity<String> csv = export(start, exportTo, "text/csv");
        ResponseEntity<JsonNode> exported = http.exchange("/api/reconciliation/ledger/export?from=" + start + "&to="
                + exportTo, HttpMethod.GET, accepting("application/json"), JsonNode.class);
        assertThat(exported.getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode totals = exported.getBody().path("totals");
        for (String term : List.of("pgApprovals", "pgCancels", "paidOrders", "renewals", "cancellations", "incidents",
                "inFlight", "unmatched", "holds")) {
            assertThat(totals.path(term)).as("the export's %s is the audit's", term).isEqualTo(audited.path(term));
        }
        assertThat(totals.path("pgApprovals").asLong()).isEqualTo(7);
        assertThat(totals.path("renewals").asLong()).isEqualTo(1);
        assertThat(totals.path("paidOrders").asLong()).isEqualTo(2);
        assertThat(totals.path("missingAtPg").asLong()).as("the audit's approvals missing at the PG").isEqualTo(
                StreamSupport.stream(audited.path("mismatches").spliterator(), false)
                        .filter(m -> m.path("reason").asText().equals("NO_PG_APPROVAL")).count());
        JsonNode rows = exported.getBody().path("transactions");
        assertThat(rows).as("7 approvals and 2 cancels").hasSize(9);
        assertThat(row(rows, renewed.transactionKey()).path("matchedTo").asText()).isEqualTo("RENEWAL");
        assertThat(row(rows, a.transactionKey()).path("matchedTo").asText()).isEqualTo("PAID");
        assertThat(row(rows, a.transactionKey()).path("orderStatus").asText()).isEqualTo("PAID");
        // F is a mismatch, unless the stored audit above already ran past its long deadline (a slow machine) and
        // opened its incident: then both the window's audit and the export count it as one.
        boolean fUnmatched = StreamSupport.stream(audited.path("mismatches").spliterator(), false)
                .anyMatch(m -> m.path("transactionKey").asText().equals(f.transactionKey()));
        assertThat(row(rows, f.transactionKey()).path("matchedTo").asText())
                .isEqualTo(fUnmatched ? "MISMATCH" : "INCIDENT");
        assertThat(row(rows, f.transactionKey()).path("reason").asText()).as("why it is not simply PAID")
                .isEqualTo("PAYMENT_NOT_APPROVED");
        assertThat(StreamSupport.stream(rows.spliterator(), false).filter(r -> r.path("type").asText().equals("CANCEL"))
                .map(r -> r.path("matchedTo").asText())).containsExactly("CANCELLATION", "CANCELLATION");
        assertThat(StreamSupport.stream(rows.spliterator(), false).map(r -> r.path("matchedTo").asText()))
                .contains("INCIDENT");

        assertThat(csv.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(csv.getHeaders().getContentType().toString()).startsWith("text/csv");
        List<String> lines = csv.getBody().lines().toList();
        assertThat(lines.get(0)).startsWith("transactionKey,type,transactedAt,orderId");
        assertThat(lines.stream().filter(l -> !l.isEmpty() && !l.startsWith("#")).count()).isEqualTo(1 + 9);
        assertThat(lines.stream().filter(l -> l.startsWith(a.transactionKey() + ",APPROVE,"))).singleElement()
                .asString().contains(",PAID,");
        String[] csvTotals = lines.get(lines.size() - 1).substring(2).split(",");
        assertThat(csvTotals[2]).as("pgApprovals").isEqualTo("7");
        assertThat(csvTotals[5]).as("renewals").isEqualTo("1");
        assertThat(csvTotals[4]).as("paidOrders").isEqualTo(audited.path("paidOrders").asText());

        String noExportScope = AuthServer.shared()
                .operator("auditor-2", "reconciliation:read", "ledger:audit");
        org.springframework.http.HttpHeaders withoutScope = new org.springframework.http.HttpHeaders();
        withoutScope.set(Security.AS, noExportScope);
        assertThat(http.exchange("/api/reconciliation/ledger/export?from=" + start + "&to=" + exportTo,
                HttpMethod.GET, new org.springframework.http.HttpEntity<>(withoutScope), String.class).getStatusCode())
                .isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(http.exchange("/api/reconciliation/ledger/export?from=" + exportTo + "&to=" + start,
                HttpMethod.GET, accepting("text/csv"), JsonNode.class).getStatusCode())
                .as("from after to").isEqualTo(HttpStatus.BAD_REQUEST);

        // Past the long deadline the two mismatches become incidents, so they can never age out unseen...
        sleepUntil(lastBooked.plus(ESCALATE).plusMillis(500));
        api.get("/api/reconciliation/ledger?refresh=true");
        JsonNode incidents = operator("/api/incidents?state=OPEN");
        assertThat(StreamSupport.stream(incidents.path("incidents").spliterator(), false)
                .filter(i -> i.path("reason").asText().equals("LEDGER_MISMATCH"))
                .map(i -> i.path("pgTransactionKey").asText()))
                .containsExactlyInAnyOrder(f.transactionKey(), "tx_nobody_booked");

        // ...and with them the identity holds: 7 = 2 PAID + 1 renewal + 2 cancellations + 2 incidents.
        JsonNode after = api.get("/api/reconciliation/ledger?refresh=true");
        assertThat(after.path("holds").asBoolean()).isTrue();
        assertThat(after.path("identity").asText())
                .isEqualTo("7 PG approvals = 2 PAID + 1 renewals + 2 cancellations + 2 incidents + 0 in flight + 0 unmatched");
        assertThat(after.path("mismatches")).isEmpty();
        assertThat(scrape("ledger_mismatches")).isZero();
        assertThat(scrape("ledger_identity_holds")).isEqualTo(1);
    }

    // --- helpers

    private ResponseEntity<String> export(Instant from, Instant to, String accept) {
        return http.exchange("/api/reconciliation/ledger/export?from=" + from + "&to=" + to, HttpMethod.GET,
                accepting(accept), String.class);
    }

    private static org.springframework.http.HttpEntity<Void> accepting(String accept) {
        org.springframework.http.HttpHeaders headers = new org.springframework.http.HttpHeaders();
        headers.set(org.springframework.http.HttpHeaders.ACCEPT, accept);
        return new org.springframework.http.HttpEntity<>(headers);
    }

    private static JsonNode row(JsonNode rows, String transactionKey) {
        return StreamSupport.stream(rows.spliterator(), false)
                .filter(r -> r.path("transactionKey").asText().equals(transactionKey)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + transactionKey));
    }

    private static void publish(DomainEvent... events) {
        for (DomainEvent event : events) {
            RelayedGoldenEvents.publish(event);
        }
    }

    private static JsonNode mismatch(JsonNode ledger, String reason) {
        return StreamSupport.stream(ledger.path("mismatches").spliterator(), false)
                .filter(m -> m.path("reason").asText().equals(reason)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + reason + " in " + ledger.path("mismatches")));
    }

    private JsonNode operator(String path) {
        return api.operator(HttpMethod.GET, path, null).getBody();
    }

    private double scrape(String series) {
        double value = Prometheus.scrape(management, series, Double.NaN);
        if (Double.isNaN(value)) {
            throw new AssertionError("no series " + series);
        }
        return value;
    }

    /** PostgreSQL keeps microseconds. */
    private static Instant micros(JsonNode time) {
        return Instant.parse(time.asText()).truncatedTo(ChronoUnit.MICROS);
    }

    private static void sleepUntil(Instant when) throws InterruptedException {
        long millis = Duration.between(Instant.now(), when).toMillis();
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }
}
