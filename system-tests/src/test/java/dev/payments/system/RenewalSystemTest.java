package dev.payments.system;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.Topics;
import dev.payments.localstack.Component;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;

import static dev.payments.system.SystemStack.admin;
import static dev.payments.system.SystemStack.asMember;
import static dev.payments.system.SystemStack.asOperator;
import static dev.payments.system.SystemStack.get;
import static dev.payments.system.SystemStack.member;
import static dev.payments.system.SystemStack.pg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Renewals end to end: renewal charges are payments like any other downstream. A run charges one subscription
 * (approved), one whose card is declined, and one whose answer is lost while the PG cannot be asked (UNKNOWN, settled
 * by reconciliation once the PG is back). order-service leaves their events alone by rule — none is dead-lettered —
 * and the ledger audit matches each PG approval of a renewal as a renewal, so the identity holds
 * (docs/decisions/renewal-payments-downstream.md).
 */
class RenewalSystemTest {

    /** payment-service's default renewal zone: its calendar says which period is due. */
    private static final ZoneId ZONE = ZoneId.of("Asia/Seoul");
    private static final String ORDER_SERVICE_DEAD_LETTERS = Topics.deadLetter(Topics.PAYMENT_EVENTS, "order-service");

    @BeforeAll
    static void stack() {
        get();
    }

    @AfterEach
    void clearFaults() {
        admin("DELETE", "/admin/faults", null);
    }

    @Test
    void approvedDeclinedAndUnknownRenewalsAreNoOrdersAndTheLedgerIdentityHolds() {
        SystemStack.awaitApprovalsAdmitted();
        String approved = subscribe();
        run();
        assertThat(nextPeriod(approved)).as("charged: paid through next month").isEqualTo(today().plusMonths(1));

        // Each billing key is issued before the PG misbehaves: its faults would refuse the issue as well.
        String declined = subscribe();
        admin("PUT", "/admin/faults", "{\"operation\":\"confirm\",\"declineRate\":1.0}");
        run();
        assertThat(nextPeriod(declined)).as("declined: due again by the dunning rules").isEqualTo(today());

        String unknown = subscribe();
        admin("PUT", "/admin/faults", SystemStack.ANSWER_LOST_AND_PG_UNASKABLE);
        JsonNode lost = run();
        assertThat(lost.path("counts").path("unknown").asLong()).as(lost.toString()).isEqualTo(1);
        admin("DELETE", "/admin/faults", null);

        // Reconciliation settles the UNKNOWN payment through payment-service's sync (the PG says DONE, and the period
        // waits for that payment, so it is kept); the next run pays the period with it.
        await("the UNKNOWN renewal settled and its period charged").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(5))
                .until(() -> run() != null && today().plusMonths(1).equals(nextPeriod(unknown)));
        assertThat(nextPeriod(declined)).isEqualTo(today());

        // Everything older than the 30 s in-flight window is matched: a PAID order, a renewal, a cancellation or an
        // incident; the two kept renewal charges are renewals, not orders that were never paid.
        await("the ledger identity").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(3)).until(() -> {
            JsonNode ledger = ledger();
            return ledger.path("holds").asBoolean() && ledger.path("inFlight").asLong() == 0;
        });
        JsonNode ledger = ledger();
        assertThat(ledger.path("renewals").asLong()).as(ledger.path("identity").asText()).isGreaterThanOrEqualTo(2);
        assertThat(ledger.path("pgApprovals").asLong()).as(ledger.path("identity").asText())
                .isEqualTo(ledger.path("paidOrders").asLong() + ledger.path("renewals").asLong()
                        + ledger.path("cancellations").asLong() + ledger.path("incidents").asLong());
        assertThat(ledger.path("mismatches")).isEmpty();

        // order-service has no order for a renewal charge and never parks its events.
        assertThat(SystemStack.topic(ORDER_SERVICE_DEAD_LETTERS).readAll(record -> isRenewal(record.value())))
                .isEmpty();
    }

    private static String subscribe() {
        String memberId = member();
        JsonNode key = pg("POST", "/v1/billing/authorizations/issue",
                "{\"customerKey\":\"" + memberId + "\",\"authKey\":\"system-test\"}");
        SystemStack.Response created = SystemStack.post(Component.PAYMENT_SERVICE, "/api/subscriptions",
                asMember(memberId), "{\"plan\":\"Monthly\",\"amount\":9900,\"currency\":\"KRW\",\"billingKey\":\""
                        + key.path("billingKey").asText() + "\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return memberId + "/" + created.text("subscriptionId");
    }

    /** An operator's run, to its end: its record. */
    private static JsonNode run() {
        SystemStack.Response started = SystemStack.post(Component.PAYMENT_SERVICE, "/api/renewals/runs", asOperator(),
                "");
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        String path = "/api/renewals/runs/" + started.text("id");
        await("renewal run " + started.text("id")).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> SystemStack.get(Component.PAYMENT_SERVICE, path, asOperator()).body().hasNonNull("endedAt"));
        return SystemStack.get(Component.PAYMENT_SERVICE, path, asOperator()).body();
    }

    private static LocalDate nextPeriod(String subscription) {
        String[] memberAndId = subscription.split("/");
        SystemStack.Response found = SystemStack.get(Component.PAYMENT_SERVICE, "/api/subscriptions/" + memberAndId[1],
                asMember(memberAndId[0]));
        assertThat(found.status()).as(found.toString()).isEqualTo(200);
        return LocalDate.parse(found.text("nextPeriod"));
    }

    private static LocalDate today() {
        return LocalDate.now(ZONE);
    }

    private static JsonNode ledger() {
        return SystemStack.get(Component.RECONCILIATION_SERVICE, "/api/reconciliation/ledger?refresh=true").body();
    }

    private static boolean isRenewal(String message) {
        try {
            return "RENEWAL".equals(EventJson.readTree(message).path("payload").path("purpose").asText());
        } catch (RuntimeException notAnEvent) {
            return false;
        }
    }
}
