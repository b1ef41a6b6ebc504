package dev.payments.order.config;

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
}
