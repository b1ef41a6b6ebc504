package dev.payments.payment.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * The renewal run (docs/renewals.md).
 *
 * @param schedule            Spring cron expression of the scheduled runs; "-" turns the schedule off (operator only)
 * @param zone                the zone of the schedule and of the calendar that says which periods have begun; explicit,
 *                            never the host's default
 * @param workers             charges in flight per run; at most the pg-renewal bulkhead's slots are used per replica
 * @param chargeDeadline      one charge's whole budget, retries and status query included (as an approval's)
 * @param dunningRetries      after a decline, the period is charged again this long after its first decline
 * @param retryNothingCharged an attempt that certainly charged nothing (the PG was not reached) is due again after this
 */
@Validated
@ConfigurationProperties("payment.renewal")
public record RenewalProperties(@DefaultValue("0 0 3,5,7 * * *") @NotBlank String schedule,
                                @DefaultValue("Asia/Seoul") ZoneId zone,
                                @DefaultValue("8") @Positive @Max(64) int workers,
                                @DefaultValue("20s") Duration chargeDeadline,
                                @DefaultValue({"1d", "3d"}) @NotEmpty List<Duration> dunningRetries,
                                @DefaultValue("10m") Duration retryNothingCharged) {
}
