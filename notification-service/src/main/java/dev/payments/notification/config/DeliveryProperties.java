package dev.payments.notification.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Delivery of stored notifications.
 *
 * @param enabled        whether this replica delivers (all replicas may: claims keep them apart)
 * @param pollInterval   pause between looks for due notifications
 * @param batchSize      notifications claimed per look
 * @param claimLease     how long a claimed notification is reserved for one worker; longer than a send may take
 * @param maxAttempts    attempts before a notification is given up (FAILED, for an operator)
 * @param initialBackoff wait after the first failed attempt; doubled after each further one
 * @param recordWithin   how long delivery results may wait to be written together; what a crash may send twice
 */
@Validated
@ConfigurationProperties("notification.delivery")
public record DeliveryProperties(@DefaultValue("true") boolean enabled,
                                 @DefaultValue("500ms") @NotNull Duration pollInterval,
                                 @DefaultValue("50") @Min(1) @Max(1000) int batchSize,
                                 @DefaultValue("60s") @NotNull Duration claimLease,
                                 @DefaultValue("5") @Min(1) @Max(100) int maxAttempts,
                                 @DefaultValue("5s") @NotNull Duration initialBackoff,
                                 @DefaultValue("100ms") @NotNull Duration recordWithin) {
}
