package dev.payments.reconciliation.config;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.time.Duration;

/**
 * When something becomes an incident, and how operators hear of it (docs/reconciliation.md, "Incidents").
 *
 * @param compensationAttempts failed compensating cancels in a row that open an incident (about a minute of retrying
 *                             with the default backoff)
 * @param unresolvedAfter      the long deadline: a payment without a final outcome, an order stuck in
 *                             PAYMENT_PENDING, or a ledger mismatch older than this opens an incident; beyond Toss's
 *                             10-minute READY expiry, after which the PG has decided everything it will
 * @param retryInterval        how often the settler still tries a payment whose incident is OPEN
 * @param webhookUrl           optional: each incident is POSTed here as JSON, best-effort
 * @param webhookTimeout       per webhook call
 */
@Validated
@ConfigurationProperties("reconciliation.incidents")
public record IncidentProperties(@Min(1) @DefaultValue("5") int compensationAttempts,
                                 @NotNull @DefaultValue("15m") Duration unresolvedAfter,
                                 @NotNull @DefaultValue("5m") Duration retryInterval,
                                 URI webhookUrl,
                                 @NotNull @DefaultValue("2s") Duration webhookTimeout) {
}
