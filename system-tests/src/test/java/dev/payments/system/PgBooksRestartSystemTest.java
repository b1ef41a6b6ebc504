package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.localstack.Component;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;

import static dev.payments.system.SystemStack.confirm;
import static dev.payments.system.SystemStack.createOrder;
import static dev.payments.system.SystemStack.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The PG's books live as long as the stack's data: a paid order, the PG simulator restarted on the same data
 * directory (as Ctrl-C and the README's command do to the whole stack, whose databases survive), and the ledger
 * audit still holds - the simulator still lists the approval, so there is no NO_PG_APPROVAL for the payment.
 */
class PgBooksRestartSystemTest {

    @Test
    void theLedgerStillHoldsAfterThePgSimulatorRestarts() {
        String memberId = member();
        String orderId = createOrder(memberId, 12_300);
        SystemStack.Response paid = confirm(orderId, memberId, 12_300, "restart-" + orderId);
        assertThat(paid.status()).as(paid.body().toString()).isEqualTo(200);
        // Past the audit's in-flight window, so the approval must be matched, not merely young.
        await("the ledger holds with the payment settled").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(2)).until(() -> {
                    JsonNode ledger = ledger();
                    return ledger.path("holds").asBoolean() && ledger.path("inFlight").asLong() == 0;
                });
        long approvalsBefore = ledger().path("pgApprovals").asLong();

        SystemStack.get().restart(Component.PG_SIMULATOR);
        // The restarted simulator takes payments again.
        String next = createOrder(memberId, 4_500);
        SystemStack.Response paidAfter = confirm(next, memberId, 4_500, "restart-" + next);
        assertThat(paidAfter.status()).as(paidAfter.body().toString()).isEqualTo(200);

        JsonNode ledger = ledger();
        assertThat(mismatchesOf(ledger, orderId)).as("mismatches of the paid order: " + ledger.path("mismatches"))
                .isEmpty();
        assertThat(ledger.path("holds").asBoolean()).as(ledger.path("mismatches").toString()).isTrue();
        assertThat(ledger.path("pgApprovals").asLong()).as("the PG's approvals").isEqualTo(approvalsBefore + 1);
    }

    private static JsonNode ledger() {
        SystemStack.Response response = SystemStack.get(Component.RECONCILIATION_SERVICE,
                "/api/reconciliation/ledger?refresh=true");
        if (response.status() != 200) {
            throw new IllegalStateException("ledger: " + response.body());
        }
        return response.body();
    }

    private static List<JsonNode> mismatchesOf(JsonNode ledger, String orderId) {
        return StreamSupport.stream(ledger.path("mismatches").spliterator(), false)
                .filter(m -> orderId.equals(m.path("orderId").asText()))
                .toList();
    }
}
