package dev.payments.reconciliation.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;

/**
 * Where reconciliation reaches the systems it will settle payments against (issue 5); reserved now so the local
 * stack and deployments can set them from the start.
 *
 * @param paymentServiceUrl base URL of payment-service, whose sync API settles a payment with the PG
 * @param pgBaseUrl         base URL of the PG, whose transaction listing the ledger audit reads
 */
@Validated
@ConfigurationProperties("reconciliation")
public record ReconciliationProperties(@NotNull @DefaultValue("http://localhost:8082") URI paymentServiceUrl,
                                       @NotNull @DefaultValue("http://localhost:8090") URI pgBaseUrl) {
}
