package dev.payments.reconciliation.config;

import dev.payments.support.retention.RetentionRule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * What reconciliation-service forgets, and when (docs/operations.md, "Retention"). The projection (payment_view,
 * order_view: one row per payment and order, what the ledger audit matches the PG's books against), incidents (a
 * trigger refuses their deletion), settlements and the operators' re-drives and replays are kept. The inbox's rule
 * comes with the outbox library.
 */
@Configuration(proxyBeanMethods = false)
class RetentionRules {

    /** Stored ledger audits after a week: the latest answers the dashboard and alert, a week shows a trend. */
    @Bean
    RetentionRule ledgerAuditRetention() {
        return RetentionRule.olderThan("ledger-audit", "ledger_audit", "audited_at", Duration.ofDays(7));
    }

    /**
     * Every projected event and every settle call, after 180 days: a payment's timeline stays answerable through the
     * card networks' 120-day dispute window, and its current state lives on in the projection.
     */
    @Bean
    RetentionRule projectedEventRetention() {
        return RetentionRule.olderThan("projected-events", "projected_event", "received_at", Duration.ofDays(180));
    }

    @Bean
    RetentionRule settlementAttemptRetention() {
        return RetentionRule.olderThan("settlement-attempts", "settlement_attempt", "attempted_at", Duration.ofDays(180));
    }
}
