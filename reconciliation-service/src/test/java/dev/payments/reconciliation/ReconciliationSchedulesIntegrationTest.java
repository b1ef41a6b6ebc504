package dev.payments.reconciliation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.payments.contracts.RelayedGoldenEvents;
import dev.payments.pgsim.PgSimulator;
import dev.payments.reconciliation.support.AnOrder;
import dev.payments.reconciliation.support.FakePaymentService;
import dev.payments.reconciliation.support.Prometheus;
import dev.payments.reconciliation.support.ReconciliationServiceTestBase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.payments.reconciliation.support.AnOrder.anOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The schedules themselves, on the real clock: nobody runs a cycle by hand here. The cadence is scaled down (a cycle
 * every 200 ms, backoff 300 ms capped at 600 ms, an audit every second) so the same bound the defaults give at 30 s
 * (max backoff + interval) shows in about a second.
 */
@TestPropertySource(properties = {"reconciliation.settler.enabled=true", "reconciliation.ledger.enabled=true",
        "reconciliation.settler.interval=200ms", "reconciliation.settler.initial-backoff=300ms",
        "reconciliation.settler.max-backoff=600ms", "reconciliation.ledger.interval=1s"})
class ReconciliationSchedulesIntegrationTest extends ReconciliationServiceTestBase {

    private static final Duration BOUND = Duration.ofMillis(600 + 200);

    private static FakePaymentService paymentService;
    private static PgSimulator pg;

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        register(registry, "reconciliation_schedules", "reconciliation-schedules-it");
        paymentService = fakePaymentService(registry);
        pg = pgSimulator(registry);
    }

    @AfterAll
    static void stop() {
        paymentService.close();
        pg.close();
    }

    @Test
    void theScheduledSettlerRetriesWithBackoffAndSettlesSoonAfterThePgRecovers() {
        AnOrder order = anOrder();
        paymentService.script(order.paymentId, FakePaymentService.pgDown());
        RelayedGoldenEvents.publish(order.requested());
        RelayedGoldenEvents.publish(order.unknown());

        await().atMost(Duration.ofSeconds(30)).until(() -> paymentService.callsOf(order.paymentId).size() >= 3);
        List<FakePaymentService.Call> calls = paymentService.callsOf(order.paymentId);
        assertThat(Duration.between(calls.get(0).at(), calls.get(1).at())).as("backed off")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300));

        paymentService.script(order.paymentId, FakePaymentService.approved());
        Instant recovered = Instant.now();
        await().atMost(Duration.ofSeconds(10)).until(() -> "APPROVED".equals(
                settlement(order).path("settledStatus").asText()));
        List<FakePaymentService.Call> all = paymentService.callsOf(order.paymentId);
        Instant settled = all.get(all.size() - 1).at();
        // max backoff + one interval, plus room for a loaded test machine
        assertThat(Duration.between(recovered, settled)).isLessThan(BOUND.plusSeconds(2));
    }

    @Test
    void theLedgerAuditRunsOnItsOwn() {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            ResponseEntity<JsonNode> ledger = http.getForEntity("/api/reconciliation/ledger", JsonNode.class);
            return ledger.getStatusCode().is2xxSuccessful() && ledger.getBody().path("holds").asBoolean();
        });
        String prometheus = management.getForObject("/actuator/prometheus", String.class);
        assertThat(prometheus).contains(Prometheus.series("ledger_audits_total{outcome=\"holds\"}"));
        assertThat(prometheus).contains(Prometheus.series("reconciliation_settle_cycles_total{outcome=\"completed\"}"));
    }

    private JsonNode settlement(AnOrder order) {
        ResponseEntity<JsonNode> response = http.getForEntity("/api/reconciliation/settlements/" + order.paymentId,
                JsonNode.class);
        return response.getStatusCode().is2xxSuccessful() ? response.getBody() : MissingNode.getInstance();
    }
}
