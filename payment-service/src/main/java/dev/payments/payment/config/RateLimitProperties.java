package dev.payments.payment.config;

import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The shared per-member limit's storage (the limit itself is {@code payment.approval.per-member-per-minute}).
 *
 * @param cleanupEvery how often one replica deletes the buckets that are full again
 * @param cleanupBatch rows deleted per statement
 */
@Validated
@ConfigurationProperties("payment.rate-limit")
public record RateLimitProperties(@DefaultValue("1m") Duration cleanupEvery,
                                  @DefaultValue("1000") @Positive int cleanupBatch) {
}
