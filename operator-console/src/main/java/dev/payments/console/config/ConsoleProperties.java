package dev.payments.console.config;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Where the services' APIs are and what the overview shows. No default URL: a console pointed nowhere says so at
 * start-up instead of showing empty pages.
 *
 * @param reconciliationServiceUrl incidents, the ledger audit, the payment projection, dead letters
 * @param paymentServiceUrl        search, Sync now, refunds, the approval path's figures
 * @param notificationServiceUrl   the notifications sent for a payment
 * @param orderServiceUrl          order-service's relay lag
 * @param deadLetterGroups         the consumer groups whose dead letters the overview counts
 * @param overviewRefresh          how often the overview reloads itself
 * @param callTimeout              one API call; a slow service shows as a problem on the page, not a hung page
 */
@Validated
@ConfigurationProperties("console")
public record ConsoleProperties(@NotNull URI reconciliationServiceUrl,
                                @NotNull URI paymentServiceUrl,
                                @NotNull URI notificationServiceUrl,
                                @NotNull URI orderServiceUrl,
                                @NotEmpty @DefaultValue({"order-service", "payment-service", "notification-service",
                                        "reconciliation-service"}) List<String> deadLetterGroups,
                                @DefaultValue("15s") Duration overviewRefresh,
                                @DefaultValue("30s") Duration callTimeout) {
}
