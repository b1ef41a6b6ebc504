package dev.payments.reconciliation.config;

import dev.payments.outbox.inbox.InboxRetention;
import dev.payments.support.retention.RetentionRulesCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * reconciliation-service's retention rules with their shipped defaults, on its own migrated schema: history goes,
 * the projection and incidents (a trigger refuses their deletion) are no rule's business.
 */
class RetentionRulesIntegrationTest {

    @Test
    void historyGoesAfterItsKeepAndTheProjectionStays() {
        RetentionRulesCheck check = RetentionRulesCheck.on("reconciliation_retention_it",
                List.of(InboxRetention.rule(), new LedgerConfiguration().ledgerAuditRetention(),
                        new ProjectionConfiguration().projectedEventRetention(),
                        new SettlingConfiguration().settlementAttemptRetention()),
                "classpath:db/migration", "classpath:db/inbox");
        var jdbc = check.jdbc();
        for (String age : List.of("181 days", "179 days")) {
            jdbc.update("INSERT INTO projected_event (event_id, event_type, aggregate, order_id, occurred_at, "
                    + "received_at, effect) VALUES (gen_random_uuid(), 'OrderCreated', 'ORDER', gen_random_uuid(), "
                    + "now() - ?::interval, now() - ?::interval, 'CREATED')", age, age);
            jdbc.update("INSERT INTO settlement_attempt (payment_id, attempted_at, picked_for, result, duration_ms) "
                    + "VALUES (gen_random_uuid(), now() - ?::interval, 'PAYMENT_UNKNOWN', 'SETTLED', 12)", age);
        }
        for (String age : List.of("8 days", "6 days")) {
            jdbc.update("INSERT INTO ledger_audit (audited_at, window_from, window_to, pg_approvals, pg_cancels, "
                    + "paid_orders, cancellations, incidents, in_flight, holds, mismatches, renewals) VALUES "
                    + "(now() - ?::interval, now() - interval '200 days', now(), 0, 0, 0, 0, 0, 0, true, '[]', 0)", age);
        }
        jdbc.update("INSERT INTO order_view (order_id, status, last_event_id, last_event_type, last_event_at, "
                + "first_seen_at, updated_at, events_applied) VALUES (gen_random_uuid(), 'CREATED', gen_random_uuid(), "
                + "'OrderCreated', now() - interval '3 years', now() - interval '3 years', now() - interval '3 years', 1)");

        assertThat(check.runCycle()).containsEntry("projected-events", 1).containsEntry("settlement-attempts", 1)
                .containsEntry("ledger-audit", 1).containsEntry("inbox", 0);

        assertThat(check.count("projected_event", "TRUE")).isEqualTo(1);
        assertThat(check.count("settlement_attempt", "TRUE")).isEqualTo(1);
        assertThat(check.count("ledger_audit", "audited_at > now() - interval '7 days'")).isEqualTo(1);
        assertThat(check.count("order_view", "TRUE")).as("the projection is kept").isEqualTo(1);
    }
}
