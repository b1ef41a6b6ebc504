package dev.payments.reconciliation.config;

import dev.payments.reconciliation.domain.settling.Backoff;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The settler (docs/reconciliation.md, "Settling"). The defaults keep one promise: an UNKNOWN payment is settled
 * within 30 s after the PG recovers — at worst it waits out its capped backoff (20 s) plus one cycle (5 s).
 *
 * @param enabled           whether the schedule runs (a cycle can always be run on demand)
 * @param interval          pause between the end of one cycle and the start of the next
 * @param settleDeadline    a REQUESTED payment or PAYMENT_PENDING order older than this is settled; above
 *                          payment-service's 20 s approval deadline, so a live request is never raced
 * @param initialBackoff    wait after a payment's first unsuccessful attempt
 * @param backoffMultiplier growth of the wait per further attempt
 * @param maxBackoff        cap of the wait
 * @param stopAfterFailures consecutive PG/payment-service failures that end a cycle (001)
 * @param batchSize         payments looked at per cycle
 * @param connectTimeout    to payment-service and the PG
 * @param syncTimeout       one sync call; above payment-service's worst case (query 3 x 5 s, cancel 3 x 5 s)
 * @param claimLease        how long one attempt holds a payment against other replicas; above the sync timeout
 * @param outcomeGrace      how long an order may lag its payment's final outcome before the payment's events are
 *                          published again; order-service applies an outcome within milliseconds, so
 *                          10 s is an event lost, not one late, and leaves the repair well inside the settle deadline
 */
@Validated
@ConfigurationProperties("reconciliation.settler")
public record SettlerProperties(@DefaultValue("true") boolean enabled,
                                @NotNull @DefaultValue("5s") Duration interval,
                                @NotNull @DefaultValue("30s") Duration settleDeadline,
                                @NotNull @DefaultValue("5s") Duration initialBackoff,
                                @DecimalMin("1.0") @DefaultValue("2.0") double backoffMultiplier,
                                @NotNull @DefaultValue("20s") Duration maxBackoff,
                                @Min(1) @DefaultValue("3") int stopAfterFailures,
                                @Min(1) @DefaultValue("100") int batchSize,
                                @NotNull @DefaultValue("1s") Duration connectTimeout,
                                @NotNull @DefaultValue("40s") Duration syncTimeout,
                                @NotNull @DefaultValue("60s") Duration claimLease,
                                @NotNull @DefaultValue("10s") Duration outcomeGrace) {

    /** The wait before a payment's next attempt: settling's and the republish's. */
    Backoff backoff() {
        return new Backoff(initialBackoff, backoffMultiplier, maxBackoff);
    }

    @AssertTrue(message = "claim-lease must be longer than sync-timeout, or a slow call's payment could be synced twice")
    public boolean isClaimLeaseAboveSyncTimeout() {
        return claimLease == null || syncTimeout == null || claimLease.compareTo(syncTimeout) > 0;
    }

    @AssertTrue(message = "max-backoff must not be below initial-backoff")
    public boolean isBackoffOrdered() {
        return initialBackoff == null || maxBackoff == null || maxBackoff.compareTo(initialBackoff) >= 0;
    }

    @AssertTrue(message = "interval and initial-backoff must be positive")
    public boolean isPositive() {
        return interval == null || initialBackoff == null || (!interval.isNegative() && !interval.isZero()
                && !initialBackoff.isNegative() && !initialBackoff.isZero());
    }
}
