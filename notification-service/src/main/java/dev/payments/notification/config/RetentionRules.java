package dev.payments.notification.config;

import dev.payments.support.retention.RetentionRule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * What notification-service forgets, and when (docs/operations.md, "Retention"); the inbox's rule comes with the
 * outbox library.
 */
@Configuration(proxyBeanMethods = false)
class RetentionRules {

    /**
     * A notification once delivered or given up, after 180 days: what the customer was told stays answerable through
     * the card networks' 120-day dispute window. A PENDING one never goes (it is still to be sent). Its unique keys stop a
     * second text for an event or payment only while the row exists, so the keep stays far above the inbox's 30 days
     * and reconciliation's republish of recent outcomes.
     */
    @Bean
    RetentionRule notificationRetention() {
        return new RetentionRule("notifications", "notifications", "created_at", "status IN ('SENT', 'FAILED')",
                Duration.ofDays(180));
    }
}
