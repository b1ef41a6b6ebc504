package dev.payments.support.retention;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.Map;

/**
 * Retention of the service's growing tables (docs/operations.md, "Retention").
 *
 * @param enabled    whether the job runs at all
 * @param cycle      how often one replica runs every rule
 * @param batchSize  rows deleted per statement: each batch is its own short transaction, so no lock is held for long
 *                   and a replica that dies mid-cycle leaves only whole batches done
 * @param maxBatches batches per rule and cycle at most: a backlog (the first cycle after a long outage) is worked
 *                   off over several cycles instead of one that outlives its lock
 * @param keep       per rule name, how long its rows are kept, over the rule's own default
 */
@Validated
@ConfigurationProperties("retention")
public record RetentionProperties(@DefaultValue("true") boolean enabled,
                                  @NotNull @DefaultValue("10m") Duration cycle,
                                  @Min(1) @Max(100_000) @DefaultValue("1000") int batchSize,
                                  @Min(1) @DefaultValue("500") int maxBatches,
                                  @NotNull @DefaultValue Map<String, Duration> keep) {
}
