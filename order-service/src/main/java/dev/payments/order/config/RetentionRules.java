package dev.payments.order.config;

import dev.payments.outbox.OutboxRetention;
import dev.payments.support.retention.RetentionRule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What order-service forgets, and when (docs/operations.md, "Retention"). Orders are never deleted: they are the
 * business record a customer, a refund or an audit comes back to.
 */
@Configuration(proxyBeanMethods = false)
class RetentionRules {

    @Bean
    RetentionRule inboxRetention() {
        return RetentionRule.inbox();
    }

    /** Published rows after 72 hours; an unpublished row never goes (the outbox library's condition). */
    @Bean
    RetentionRule outboxRetention() {
        return new RetentionRule("outbox", "outbox", "created_at", OutboxRetention.PUBLISHED, OutboxRetention.KEEP);
    }
}
