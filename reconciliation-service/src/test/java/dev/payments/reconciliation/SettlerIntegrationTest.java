package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.RepublishLostOutcomes;
import dev.payments.reconciliation.application.settling.SettleCandidate;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.settling.Settlements;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.FakePaymentService;
import dev.payments.reconciliation.support.Prometheus;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import dev.payments.reconciliation.support.Security;
import dev.payments.reconciliation.support.WebhookReceiver;
import dev.payments.testsupport.identity.AuthServer;
import dev.payments.testsupport.infra.MovableClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.dao.DataAccessException;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The settler's protocol on real PostgreSQL and Kafka (the projection is filled through real events) against a real
 * HTTP endpoint that answers like payment-service's sync ({@link FakePaymentService}: payment-service is another
 * application, so the whole chain — PG back, payment APPROVED, order PAID — is a system test). No PG is reachable: the
 * settler learns everything, including whether the PG is down or a compensating cancel fails, from payment-service's
 * answer alone. Cycles are run by hand and time is moved by hand, so each rule is observed exactly.
 */
class SettlerIntegrationTest extends ReconciliationServiceTestBase {


    private static FakePaymentService paymentService;
    private static WebhookReceiver webhook;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_settler", "reconciliation-settler-it");
        paymentService = fakePaymentService(registry);
        webhook = WebhookReceiver.start();
        registry.add("reconciliation.pg-base-url", () -> "http://127.0.0.1:" + closedPort());
        registry.add("reconciliation.incidents.webhook-url", webhook::url);
    }

    @AfterAll
    static void stop() {
        paymentService.close();
        webhook.close();
    }

    @TestConfiguration
    static class Time {
        @Bean
        @Primary
        MovableClock mutableClock() {
            return MovableClock.at(Instant.now());
        }
    }

    @Autowired
    SettlePayments settler;

    @Autowired
    RepublishLostOutcomes republishLostOutcomes;

    @Autowired
    Settlements settlements;

    @Autowired
    MovableClock clock;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ObjectMapper json;

    @BeforeEach
    void cleanSlate() {
        jdbc.sql("TRUNCATE payment_view, order_view, projected_event, settlement, settlement_attempt, incident, "
                        + "outcome_repair")
                .update();
        paymentService.reset();
        webhook.clear();
        clock.set(Instant.now());
    }

    @Test
    void anUnknownPaymentIsSyncedWithTheServicesOwnTokenSettledAndNeverSyncedAgain() {
        AnOrder order = anOrder();
        publish(order.created(), order.requested(), order.pending(), order.unknown());
        api.awaitPayment(order, "UNKNOWN");
        paymentService.script(order.paymentId, FakePaymentService.approved());

        CycleReport report = settler.runCycle();

        assertThat(report.attempted()).isEqualTo(1);
        assertThat(report.settled()).isEqualTo(1);
        assertThat(paymentService.callsOf(order.paymentId)).singleElement()
                .satisfies(call -> {
                    assertThat(call.claims().path("sub").asText()).as("its own client-credentials token")
                            .isEqualTo(Security.CLIENT_ID);
                    assertThat(call.claims().path("scope").toString()).contains("payments:sync");
                });
        JsonNode settlement = api.get("/api/reconciliation/settlements/" + order.paymentId);
        assertThat(settlement.path("trigger").asText()).isEqualTo("PAYMENT_UNKNOWN");
        assertThat(settlement.path("settledStatus").asText()).isEqualTo("APPROVED");
        assertThat(settlement.path("attemptHistory")).singleElement().satisfies(a -> {
            assertThat(a.path("result").asText()).isEqualTo("SETTLED");
            assertThat(a.path("pgState").asText()).isEqualTo("DONE");
            assertThat(a.path("action").asText()).isEqualTo("APPROVED");
        });

        // Our projection still says UNKNOWN (the fake publishes no event) and the order is now stuck by age:
        // the settlement's outcome keeps the settler from calling again.
        clock.advance(Duration.ofMinutes(1));
        assertThat(settler.runCycle().attempted()).isZero();
        assertThat(paymentService.callsOf(order.paymentId)).hasSize(1);
        assertThat(Prometheus.httpClientCalls(management, "POST", "/api/payments/{paymentId}/sync\""))
                .as("the sync call is observed, as every call of Boot's RestClient.Builder is").isPositive();
    }

    @Test
    void aCycleStopsAfterThreePgFailuresBacksOffAndSettlesEverythingWithin30sOfThePgRecovering() {
        List<AnOrder> orders = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            AnOrder order = anOrder();
            publish(order.requested(), order.unknown());
            orders.add(order);
        }
        orders.forEach(o -> api.awaitPayment(o, "UNKNOWN"));
        paymentService.otherwise(FakePaymentService.pgDown());

        CycleReport first = settler.runCycle();
        assertThat(first.attempted()).isEqualTo(3);
        assertThat(first.stoppedEarly()).isTrue();
        assertThat(paymentService.calls()).extracting(FakePaymentService.Call::paymentId)
                .as("longest waiting first").containsExactly(orders.get(0).paymentId, orders.get(1).paymentId,
                        orders.get(2).paymentId);

        clock.advance(Duration.ofSeconds(1));
        CycleReport second = settler.runCycle();
        assertThat(second.attempted()).as("the first three back off; the next cycle tries the others").isEqualTo(2);
        assertThat(second.stoppedEarly()).isFalse();

        clock.advance(Duration.ofSeconds(3));
        assertThat(settler.runCycle().attempted()).as("4 s after the first failures: still backing off").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(settler.runCycle().attempted()).as("5 s after: due again, and stopped again").isEqualTo(3);

        JsonNode settlement = api.get("/api/reconciliation/settlements/" + orders.get(0).paymentId);
        assertThat(settlement.path("lastResult").asText()).as("payment-service's stage STATUS_QUERY: the PG is down")
                .isEqualTo("PG_FAILED");
        assertThat(settlement.path("attemptHistory")).allSatisfy(a -> assertThat(a.path("result").asText())
                .isEqualTo("PG_FAILED"));
        assertThat(settlement.path("compensationFailures").asInt()).isZero();

        // The PG comes back. With the default cadence (a cycle every 5 s) every payment settles within 30 s.
        paymentService.otherwise(FakePaymentService.approved());
        Instant recovered = clock.instant();
        int settled = 0;
        while (settled < 5 && Duration.between(recovered, clock.instant()).getSeconds() <= 30) {
            clock.advance(Duration.ofSeconds(5));
            settled += settler.runCycle().settled();
        }
        assertThat(settled).isEqualTo(5);
        assertThat(Duration.between(recovered, clock.instant())).isLessThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(jdbc.sql("SELECT count(*) FROM incident").query(Long.class).single()).isZero();
    }

    @Test
    void anOrderThatLagsItsPaymentsOutcomeHasThePaymentsEventsRepublishedWithinTheSettleDeadline() {
        // order-service never applied the approval (the order waits in PAYMENT_PENDING) ...
        AnOrder lost = anOrder();
        publish(lost.created(), lost.pending(), lost.requested(), lost.approved("tx_lost", Instant.now()));
        // ... nor anything of this declined payment (the order is still CREATED) ...
        AnOrder neverSeen = anOrder();
        publish(neverSeen.created(), neverSeen.requested(), neverSeen.declined());
        // ... but this one it did, and a declined customer is trying again on this one.
        AnOrder consistent = anOrder();
        publish(consistent.created(), consistent.pending(), consistent.requested(),
                consistent.approved("tx_ok", Instant.now()), consistent.paid());
        AnOrder retrying = anOrder();
        publish(retrying.created(), retrying.pending(), retrying.requested(), retrying.declined(),
                retrying.orderFailed("PAYMENT_DECLINED"));
        AnOrder secondAttempt = retrying.nextAttempt();
        publish(secondAttempt.requested(), secondAttempt.pending());
        // A declined customer's second card was approved, and that approval never reached order-service.
        AnOrder retried = anOrder();
        publish(retried.created(), retried.pending(), retried.requested(), retried.declined(),
                retried.orderFailed("PAYMENT_DECLINED"));
        AnOrder approvedRetry = retried.nextAttempt();
        publish(approvedRetry.requested(), approvedRetry.approved("tx_retry", Instant.now()));
        api.awaitPayment(lost, "APPROVED");
        api.awaitOrder(lost, "PAYMENT_PENDING");
        api.awaitPayment(neverSeen, "DECLINED");
        api.awaitOrder(consistent, "PAID");
        api.awaitPayment(secondAttempt, "REQUESTED");
        api.awaitPayment(approvedRetry, "APPROVED");
        api.awaitOrder(retried, "FAILED");
        double republishedBefore = Prometheus.scrape(management,
                "reconciliation_outcomes_republished_total{result=\"republished\"}", 0);

        assertThat(republishLostOutcomes.run()).as("within the grace: order-service may only be behind").isZero();

        clock.set(Instant.now().plusSeconds(11));
        assertThat(republishLostOutcomes.run()).isEqualTo(3);
        assertThat(paymentService.republishes()).extracting(FakePaymentService.Call::paymentId)
                .as("not the consistent order, not the first attempt of an order that moved on to a second")
                .containsExactlyInAnyOrder(lost.paymentId, neverSeen.paymentId, approvedRetry.paymentId);
        assertThat(paymentService.republishes()).as("with reconciliation's own token, scope payments:sync")
                .allSatisfy(call -> assertThat(call.claims().path("scope").toString()).contains("payments:sync"));
        assertThat(republishLostOutcomes.run()).as("then it backs off").isZero();
        assertThat(Prometheus.scrape(management, "reconciliation_outcomes_republished_total{result=\"republished\"}", 0))
                .isEqualTo(republishedBefore + 3);

        // order-service applied what it got again; one order still lags.
        publish(lost.paid(), approvedRetry.paid());
        api.awaitOrder(lost, "PAID");
        api.awaitOrder(approvedRetry, "PAID");
        clock.advance(Duration.ofSeconds(6));
        paymentService.republishAnswer(new FakePaymentService.Problem(503, "UNAVAILABLE", "down"));
        assertThat(republishLostOutcomes.run()).as("payment-service down: recorded, nothing republished").isZero();
        assertThat(paymentService.republishes()).hasSize(4).last()
                .satisfies(call -> assertThat(call.paymentId()).isEqualTo(neverSeen.paymentId));
        assertThat(Prometheus.scrape(management, "reconciliation_outcomes_republished_total{result=\"unavailable\"}", 0))
                .isPositive();
    }

    @Test
    void staleRequestedPaymentsAndOrdersStuckInPaymentPendingAreSwept() {
        AnOrder requestDied = anOrder();
        publish(requestDied.created(), requestDied.requested(), requestDied.pending());
        // 000's missing branch: the PG says CANCELED, the payment became FAILED, the order is still PAYMENT_PENDING.
        AnOrder pgCanceled = anOrder();
        publish(pgCanceled.created(), pgCanceled.requested(), pgCanceled.pending(), pgCanceled.unknown(),
                pgCanceled.failed("PG_CANCELED"));
        AnOrder neverApplied = anOrder();
        publish(neverApplied.created(), neverApplied.requested(), neverApplied.pending(), neverApplied.declined());
        api.awaitPayment(requestDied, "REQUESTED");
        api.awaitPayment(pgCanceled, "FAILED");
        api.awaitPayment(neverApplied, "DECLINED");
        api.awaitOrder(neverApplied, "PAYMENT_PENDING");

        assertThat(settler.runCycle().attempted()).as("younger than the settle deadline: the request may be alive")
                .isZero();

        // From now, not from the clean slate's time: on a busy machine the events above took seconds to arrive.
        clock.set(Instant.now().plusSeconds(31));
        paymentService.script(requestDied.paymentId, new FakePaymentService.Synced("FAILED", "NOT_FOUND", "FAILED"));
        paymentService.script(pgCanceled.paymentId, new FakePaymentService.Synced("FAILED", "CANCELED", "NONE"));
        paymentService.script(neverApplied.paymentId, new FakePaymentService.Synced("DECLINED", "ABORTED", "NONE"));
        CycleReport sweep = settler.runCycle();

        assertThat(sweep.attempted()).isEqualTo(3);
        assertThat(sweep.settled()).isEqualTo(3);
        assertThat(api.get("/api/reconciliation/settlements/" + requestDied.paymentId).path("trigger").asText())
                .isEqualTo("STALE_REQUESTED");
        assertThat(api.get("/api/reconciliation/settlements/" + pgCanceled.paymentId).path("trigger").asText())
                .isEqualTo("ORDER_STUCK");

        // What payment-service and order-service publish after such a sync: the orders end FAILED.
        publish(requestDied.failed("PG_NOT_FOUND"), requestDied.orderFailed("PAYMENT_FAILED"),
                pgCanceled.orderFailed("PAYMENT_FAILED"));
        api.awaitOrder(requestDied, "FAILED");
        api.awaitOrder(pgCanceled, "FAILED");

        // Past the long deadline only the order whose outcome order-service never applied is an incident.
        clock.advance(Duration.ofMinutes(16));
        CycleReport later = settler.runCycle();
        assertThat(later.attempted()).isZero();
        assertThat(later.incidentsOpened()).isEqualTo(1);
        JsonNode incidents = api.operator(HttpMethod.GET, "/api/incidents?state=OPEN", null).getBody();
        assertThat(incidents.path("incidents")).singleElement().satisfies(incident -> {
            assertThat(incident.path("reason").asText()).isEqualTo("ORDER_STUCK");
            assertThat(incident.path("orderId").asText()).isEqualTo(neverApplied.orderId.toString());
            assertThat(incident.path("detail").asText()).contains("DECLINED").contains("dlt");
        });
    }

    @Test
    void aCompensationThatKeepsFailingBecomesAnIncidentOperatorsHearOfAndCloseByHand() throws Exception {
        AnOrder order = anOrder();
        publish(order.created(), order.requested(), order.pending(), order.unknown());
        api.awaitPayment(order, "UNKNOWN");
        paymentService.script(order.paymentId, FakePaymentService.cancelFailed());
        double openedBefore = scrape("reconciliation_incidents_opened_total{reason=\"COMPENSATION_FAILED\"}");

        for (int attempt = 1; attempt <= 4; attempt++) {
            assertThat(settler.runCycle().incidentsOpened()).isZero();
            clock.advance(Duration.ofSeconds(20));
        }
        assertThat(scrape("reconciliation_incidents_open")).isZero();
        assertThat(settler.runCycle().incidentsOpened()).as("the fifth failed cancel").isEqualTo(1);
        assertThat(api.get("/api/reconciliation/settlements/" + order.paymentId).path("attemptHistory"))
                .as("payment-service's stage CANCEL: the PG holds money it will not give back").hasSize(5)
                .allSatisfy(a -> assertThat(a.path("result").asText()).isEqualTo("COMPENSATION_FAILED"));

        // The alert: gauge, counter, webhook — within seconds.
        assertThat(scrape("reconciliation_incidents_open")).isEqualTo(1);
        assertThat(scrape("reconciliation_incidents_opened_total{reason=\"COMPENSATION_FAILED\"}") - openedBefore)
                .isEqualTo(1);
        JsonNode hook = json.readTree(webhook.next(5));
        assertThat(hook.path("type").asText()).isEqualTo("incident.opened");
        assertThat(hook.at("/incident/paymentId").asText()).isEqualTo(order.paymentId.toString());
        assertThat(hook.at("/incident/reason").asText()).isEqualTo("COMPENSATION_FAILED");

        HttpHeaders anonymous = new HttpHeaders();
        anonymous.set(Security.ANONYMOUS, "true");
        ResponseEntity<JsonNode> noToken = http.exchange("/api/incidents", HttpMethod.GET, new HttpEntity<>(anonymous),
                JsonNode.class);
        assertThat(noToken.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(noToken.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(noToken.getBody().path("code").asText()).isEqualTo("UNAUTHENTICATED");
        HttpHeaders member = new HttpHeaders();
        member.setBearerAuth(AuthServer.shared().member("member-1"));
        ResponseEntity<JsonNode> asAMember = http.exchange("/api/incidents", HttpMethod.GET, new HttpEntity<>(member),
                JsonNode.class);
        assertThat(asAMember.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
        assertThat(asAMember.getBody().path("code").asText()).isEqualTo("INSUFFICIENT_SCOPE");

        JsonNode open = api.operator(HttpMethod.GET, "/api/incidents?state=OPEN", null).getBody();
        assertThat(open.path("count").asInt()).isEqualTo(1);
        JsonNode incident = open.path("incidents").get(0);
        assertThat(incident.path("reason").asText()).isEqualTo("COMPENSATION_FAILED");
        assertThat(incident.path("state").asText()).isEqualTo("OPEN");
        assertThat(incident.path("paymentId").asText()).isEqualTo(order.paymentId.toString());
        assertThat(incident.path("orderId").asText()).isEqualTo(order.orderId.toString());
        assertThat(incident.path("amount").asLong()).isEqualTo(15_000);
        assertThat(incident.path("currency").asText()).isEqualTo("KRW");
        assertThat(incident.path("attempts").asInt()).isEqualTo(5);
        assertThat(incident.path("detail").asText()).contains("FAILED_INTERNAL_SYSTEM_PROCESSING");
        String id = incident.path("id").asText();
        ResponseEntity<JsonNode> memberTakesIt = http.exchange("/api/incidents/" + id + "/acknowledge", HttpMethod.POST,
                new HttpEntity<>(Map.of("note", "I am an operator"), member), JsonNode.class);
        assertThat(memberTakesIt.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);

        ResponseEntity<JsonNode> acknowledged = api.operatorAs("alice", HttpMethod.POST, "/api/incidents/" + id + "/acknowledge",
                Map.of("by", "mallory", "note", "calling the PG"));
        assertThat(acknowledged.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(acknowledged.getBody().path("state").asText()).isEqualTo("ACKNOWLEDGED");
        assertThat(acknowledged.getBody().path("acknowledgedBy").asText()).as("the token's subject, not the body's name")
                .isEqualTo("alice");
        assertThat(scrape("reconciliation_incidents_open")).as("taken: the alert stops").isZero();
        ResponseEntity<JsonNode> twice = api.operatorAs("bob", HttpMethod.POST, "/api/incidents/" + id + "/acknowledge",
                Map.of());
        assertThat(twice.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(twice.getBody().path("code").asText()).isEqualTo("ILLEGAL_INCIDENT_TRANSITION");
        assertThat(twice.getBody().path("state").asText()).isEqualTo("ACKNOWLEDGED");

        int callsBefore = paymentService.callsOf(order.paymentId).size();
        clock.advance(Duration.ofMinutes(10));
        settler.runCycle();
        assertThat(paymentService.callsOf(order.paymentId)).as("a human owns it now: the settler keeps off")
                .hasSize(callsBefore);

        ResponseEntity<JsonNode> blank = api.operatorAs("bob", HttpMethod.POST, "/api/incidents/" + id + "/resolve",
                Map.of("resolution", " "));
        assertThat(blank.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(blank.getBody().path("code").asText()).isEqualTo("VALIDATION_FAILED");
        ResponseEntity<JsonNode> settlersOutcome = api.operatorAs("bob", HttpMethod.POST, "/api/incidents/" + id
                + "/resolve", Map.of("outcome", "SETTLED_AUTOMATICALLY", "resolution", "the settler did it"));
        assertThat(settlersOutcome.getStatusCode()).as("an outcome only the settler states").isEqualTo(HttpStatus.BAD_REQUEST);
        ResponseEntity<JsonNode> resolved = api.operatorAs("bob", HttpMethod.POST, "/api/incidents/" + id + "/resolve",
                Map.of("outcome", "REFUNDED_AT_PG", "resolution", "cancelled in the PG console"));
        assertThat(resolved.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(resolved.getBody().path("state").asText()).isEqualTo("RESOLVED");
        assertThat(resolved.getBody().path("outcome").asText()).isEqualTo("REFUNDED_AT_PG");
        assertThat(resolved.getBody().path("resolvedBy").asText()).isEqualTo("bob");
        assertThat(resolved.getBody().path("acknowledgedBy").asText()).isEqualTo("alice");
        assertThat(resolved.getBody().path("resolvedAt").isTextual()).isTrue();
        assertThat(api.operator(HttpMethod.POST, "/api/incidents/" + id + "/resolve",
                Map.of("resolution", "again")).getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(api.operator(HttpMethod.GET, "/api/incidents?state=RESOLVED", null).getBody().path("incidents"))
                .singleElement().satisfies(i -> assertThat(i.path("resolution").asText())
                        .isEqualTo("cancelled in the PG console"));
        assertThat(api.operator(HttpMethod.POST, "/api/incidents/" + UUID.randomUUID() + "/acknowledge",
                Map.of()).getBody().path("code").asText()).isEqualTo("INCIDENT_NOT_FOUND");

        // The audit trail: every action on the incident, done or refused, with who, what, why and how it ended.
        ResponseEntity<JsonNode> trail = api.operatorAs("carol", HttpMethod.GET, "/api/operator-actions?objectId=" + id,
                null, "audit:read");
        assertThat(trail.getStatusCode()).as(String.valueOf(trail.getBody())).isEqualTo(HttpStatus.OK);
        List<String> recorded = new java.util.ArrayList<>();
        trail.getBody().path("actions").forEach(action -> recorded.add(String.join(" | ", action.path("subject").asText(),
                action.path("action").asText(), action.path("result").asText(), action.path("status").asText("-"),
                action.path("reason").asText("-"), action.path("inTransaction").asText())));
        assertThat(recorded).as("newest first").containsExactly(
                "operator-1 | POST /api/incidents/{id}/resolve | REFUSED | 409 | again | false",
                "bob | POST /api/incidents/{id}/resolve | DONE | - | cancelled in the PG console | true",
                "bob | POST /api/incidents/{id}/resolve | REFUSED | 400 | the settler did it | false",
                "bob | POST /api/incidents/{id}/resolve | REFUSED | 400 |   | false",
                "bob | POST /api/incidents/{id}/acknowledge | REFUSED | 409 | - | false",
                "alice | POST /api/incidents/{id}/acknowledge | DONE | - | calling the PG | true",
                "member-1 | POST /api/incidents/{id}/acknowledge | REFUSED | 403 | - | false");
        assertThat(trail.getBody().path("actions").get(0).path("objectId").asText()).isEqualTo(id);
        assertThat(api.operatorAs("carol", HttpMethod.GET, "/api/operator-actions", null, "reconciliation:read")
                .getStatusCode()).as("the trail needs its own scope").isEqualTo(HttpStatus.FORBIDDEN);

        assertThatThrownBy(() -> jdbc.sql("DELETE FROM incident").update())
                .isInstanceOf(DataAccessException.class).hasMessageContaining("never deleted");
    }

    @Test
    void paymentServiceDownStopsTheCycleAndAWrongTokenStopsItWithoutBlamingThePayment() {
        List<AnOrder> orders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            AnOrder order = anOrder();
            publish(order.requested(), order.unknown());
            orders.add(order);
        }
        orders.forEach(o -> api.awaitPayment(o, "UNKNOWN"));
        paymentService.otherwise(new FakePaymentService.Drop());
        int tokensBefore = AuthServer.shared().tokensIssuedTo(Security.CLIENT_ID);

        CycleReport down = settler.runCycle();
        assertThat(down.attempted()).isEqualTo(3);
        assertThat(down.stoppedEarly()).isTrue();
        assertThat(api.get("/api/reconciliation/settlements/" + orders.get(0).paymentId).path("lastResult").asText())
                .isEqualTo("UNAVAILABLE");

        int tokensAfterThreeCalls = AuthServer.shared().tokensIssuedTo(Security.CLIENT_ID);
        assertThat(tokensAfterThreeCalls).as("one cached token for every call").isLessThanOrEqualTo(tokensBefore + 1);
        paymentService.refuseTokens();
        clock.advance(Duration.ofMinutes(1));
        CycleReport refused = settler.runCycle();
        assertThat(refused.stoppedEarly()).isTrue();
        assertThat(refused.stopReason()).contains("401");
        assertThat(refused.attempted()).isZero();
        assertThat(paymentService.calls()).hasSize(4);
        assertThat(jdbc.sql("SELECT count(*) FROM settlement_attempt").query(Long.class).single())
                .as("the refused call is not held against the payment").isEqualTo(3);

        clock.advance(Duration.ofMinutes(1));
        settler.runCycle();
        assertThat(AuthServer.shared().tokensIssuedTo(Security.CLIENT_ID)).as("a refused token is fetched anew")
                .isEqualTo(tokensAfterThreeCalls + 1);
    }

    @Test
    void aPaymentWithoutAnOutcomePastTheLongDeadlineBecomesAnIncidentOnce() {
        AnOrder order = anOrder();
        publish(order.requested(), order.unknown());
        api.awaitPayment(order, "UNKNOWN");
        paymentService.otherwise(FakePaymentService.pgDown());
        settler.runCycle();

        clock.advance(Duration.ofMinutes(16));
        CycleReport report = settler.runCycle();
        CycleReport again = settler.runCycle();

        assertThat(report.incidentsOpened()).isEqualTo(1);
        assertThat(again.incidentsOpened()).isZero();
        JsonNode incident = api.operator(HttpMethod.GET, "/api/incidents", null).getBody().path("incidents").get(0);
        assertThat(incident.path("reason").asText()).isEqualTo("UNRESOLVED");
        assertThat(incident.path("detail").asText()).contains("UNKNOWN").contains("PG_FAILED");
    }

    @Test
    void cyclesRunningAtOnceSyncEveryDuePaymentExactlyOnce() throws Exception {
        // The schedule and an operator's settle-now overlap whenever a sync is slow; nothing but the claims keeps
        // them apart.
        List<AnOrder> orders = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            AnOrder order = anOrder();
            publish(order.created(), order.requested(), order.pending(), order.unknown());
            paymentService.script(order.paymentId,
                    new FakePaymentService.Slow(Duration.ofMillis(300), FakePaymentService.approved()));
            orders.add(order);
        }
        orders.forEach(order -> api.awaitPayment(order, "UNKNOWN"));
        clock.advance(Duration.ofMinutes(1));

        CompletableFuture<CycleReport> first = CompletableFuture.supplyAsync(settler::runCycle);
        CompletableFuture<CycleReport> second = CompletableFuture.supplyAsync(settler::runCycle);
        CycleReport a = first.get(30, TimeUnit.SECONDS);
        CycleReport b = second.get(30, TimeUnit.SECONDS);

        assertThat(a.settled() + b.settled()).isEqualTo(6);
        assertThat(a.attempted() + b.attempted()).isEqualTo(6);
        assertThat(orders).allSatisfy(order -> assertThat(paymentService.callsOf(order.paymentId)).hasSize(1));
    }

    @Test
    void twoReplicasNeverSyncOnePaymentAtTheSameTimeAndADeadReplicasClaimExpires() {
        AnOrder order = anOrder();
        publish(order.requested(), order.unknown());
        api.awaitPayment(order, "UNKNOWN");
        Instant now = clock.instant();
        SettleCandidate candidate = settlements.due(now, now.minusSeconds(30), 10).get(0);

        assertThat(settlements.claim(candidate, now, now.plusSeconds(60), "replica-a")).isPresent();
        assertThat(settlements.claim(candidate, now, now.plusSeconds(60), "replica-b")).as("held by a").isEmpty();
        assertThat(settlements.due(now, now.minusSeconds(30), 10)).as("a claimed payment is not offered").isEmpty();

        // replica-a died mid-call: its claim runs out and the payment is offered again.
        Instant later = now.plusSeconds(61);
        assertThat(settlements.due(later, later.minusSeconds(30), 10)).hasSize(1);
        assertThat(settlements.claim(candidate, later, later.plusSeconds(60), "replica-b")).isPresent();
    }

    // --- helpers

    /** A loopback port nothing listens on: the PG, were the settler to ask it, refuses the connection. */
    private static int closedPort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every event a test sends; the next test's clean slate waits until all of them were applied. */
    private final List<UUID> published = new ArrayList<>();

    private void publish(DomainEvent... events) {
        for (DomainEvent event : events) {
            published.add(RelayedGoldenEvents.publish(event).envelope().eventId());
        }
    }

    @AfterEach
    void awaitEveryEventApplied() {
        await().atMost(EVENTUALLY).until(() -> published.stream().allMatch(id -> jdbc
                .sql("SELECT count(*) FROM inbox WHERE event_id = :id").param("id", id).query(Long.class)
                .single() > 0));
    }

    /** One sample's value from {@code /actuator/prometheus}; 0 when the series is absent. */
    private double scrape(String series) {
        return Prometheus.scrape(management, series, 0);
    }
}
