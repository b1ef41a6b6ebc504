package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.pgsim.PgSimulator;
import dev.payments.pgsim.PgSimulatorConfig;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.PgTestClient;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ledger identity in money against the real in-process PG simulator (partial cancels booked through its API) and
 * a projection filled through real Kafka events (the Refund events payment-service publishes): the audit, its money
 * terms and the finance export's totals.
 */
class RefundLedgerIntegrationTest extends ReconciliationServiceTestBase {

    private static PgSimulator simulator;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_refund_ledger", "reconciliation-refund-ledger-it");
        simulator = pgSimulator(registry);
    }

    @AfterAll
    static void stop() {
        simulator.close();
    }

    @Test
    void partialRefundsTheRefundEventsAccountForHoldInMoneyAndThePartiallyRefundedOrderIsPaid() {
        PgTestClient pg = new PgTestClient(simulator.baseUrl(), PgSimulatorConfig.DEFAULT_SECRET_KEY);
        Instant start = Instant.now().minusSeconds(1);
        AnOrder sale = anOrder(12_000);
        PgTestClient.Confirmed approved = pg.confirm(sale);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        JsonNode afterFirst = pg.cancel(sale, "refund " + first + ": one item", 3_000);
        JsonNode afterSecond = pg.cancel(sale, "refund " + second + ": another", 2_000);
        assertThat(afterSecond.path("status").asText()).isEqualTo("PARTIAL_CANCELED");
        for (DomainEvent event : java.util.List.of(sale.created(), sale.requested(), sale.pending(),
                sale.approved(approved.transactionKey(), approved.approvedAt()), sale.paid())) {
            publish(event);
        }
        sale.refunded(first, 3_000, 3_000, afterFirst.path("lastTransactionKey").asText()).forEach(RefundLedgerIntegrationTest::publish);
        sale.refunded(second, 2_000, 5_000, afterSecond.path("lastTransactionKey").asText()).forEach(RefundLedgerIntegrationTest::publish);
        publish(sale.partiallyRefunded(3_000));
        publish(sale.partiallyRefunded(5_000));
        api.awaitOrder(sale, "PARTIALLY_REFUNDED");
        await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/api/reconciliation/orders/" + sale.orderId)
                .path("refundedAmount").asLong() == 5_000);
        JsonNode payment = await().atMost(Duration.ofSeconds(30)).until(
                () -> api.get("/api/reconciliation/payments/" + sale.paymentId),
                p -> p.path("refundedAmount").asLong() == 5_000);
        assertThat(payment.path("status").asText()).isEqualTo("APPROVED");
        assertThat(payment.path("refunds").findValuesAsText("refundId"))
                .containsExactlyInAnyOrder(first.toString(), second.toString());
        assertThat(payment.path("refunds").findValuesAsText("status")).containsOnly("SUCCEEDED");
        Instant to = Instant.now().plusSeconds(1);

        JsonNode ledger = await().atMost(Duration.ofSeconds(30)).until(
                () -> api.get("/api/reconciliation/ledger?from=" + start + "&to=" + to),
                l -> l.path("money").path("refunded").asLong() == 5_000);

        assertThat(ledger.path("paidOrders").asLong()).isEqualTo(1);
        assertThat(ledger.path("pgCancels").asLong()).isEqualTo(2);
        assertThat(ledger.path("holds").asBoolean()).as(ledger.toString()).isTrue();
        JsonNode money = ledger.path("money");
        assertThat(money.path("pgApproved").asLong()).isEqualTo(12_000);
        assertThat(money.path("pgRefunded").asLong()).isEqualTo(5_000);
        assertThat(money.path("paid").asLong()).isEqualTo(12_000);
        assertThat(money.path("holds").asBoolean()).isTrue();
        JsonNode totals = http.exchange("/api/reconciliation/ledger/export?from=" + start + "&to=" + to,
                HttpMethod.GET, accepting("application/json"), JsonNode.class).getBody().path("totals");
        assertThat(totals.path("pgRefundedAmount").asLong()).as("the finance export carries the refunds").isEqualTo(5_000);
        assertThat(totals.path("refundedAmount").asLong()).isEqualTo(5_000);
        assertThat(totals.path("moneyHolds").asBoolean()).isTrue();
    }

    private static void publish(DomainEvent event) {
        RelayedGoldenEvents.publish(event);
    }

    private static org.springframework.http.HttpEntity<Void> accepting(String accept) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.ACCEPT, accept);
        return new org.springframework.http.HttpEntity<>(headers);
    }
}
