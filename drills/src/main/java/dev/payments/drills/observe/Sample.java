package dev.payments.drills.observe;

import java.util.Map;

/**
 * One scrape of payment-service's {@code /actuator/prometheus} (null fields: not answered or not exported).
 *
 * @param approvals {@code payment_approval_total} by outcome label, cumulative
 * @param breaker   CLOSED, OPEN, HALF_OPEN (or null)
 * @param relayLagSeconds the outbox relay's p99 of commit -> acknowledged by Kafka, over the timer's recent window
 * @param consumerLag records behind per consumer group (null while Kafka does not answer)
 */
public record Sample(double t, boolean up, Double poolPending, Double poolActive, Double poolTimeouts,
                     Double bulkheadAvailable, String breaker, Double relayLagSeconds, Double cpu, Double threads,
                     Map<String, Double> approvals, Map<String, Long> consumerLag) {
}
