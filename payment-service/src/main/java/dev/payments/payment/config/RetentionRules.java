package dev.payments.payment.config;

import dev.payments.support.retention.RetentionRule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * What payment-service forgets, and when (docs/operations.md, "Retention"). Payments, renewals and the payable-order
 * view are never deleted: they are the money's record. The inbox's and the outbox's rules come with the outbox
 * library. The rate-limit buckets keep Bucket4j's own expiry (a bucket
 * row is deleted once it is full again, within a minute).
 */
@Configuration(proxyBeanMethods = false)
class RetentionRules {

    /**
     * An Idempotency-Key after 15 days, Toss Payments' documented window (Stripe keeps 24 h). A key reused after it
     * is a new request: for a confirm, the payment's own state still refuses a second charge (one live payment per
     * order, the payable order no longer payable). A key whose payment is still REQUESTED or UNKNOWN stays, so a client
     * retrying it keeps getting "still confirming" rather than a refusal.
     */
    @Bean
    RetentionRule idempotencyKeyRetention() {
        return new RetentionRule("idempotency-keys", "idempotency_keys", "created_at",
                "NOT EXISTS (SELECT 1 FROM payments p WHERE p.payment_id = idempotency_keys.payment_id"
                        + " AND p.status IN ('REQUESTED', 'UNKNOWN'))",
                Duration.ofDays(15));
    }
}
