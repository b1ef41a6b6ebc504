package dev.payments.reconciliation.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;

/**
 * Where reconciliation reaches the systems it settles payments against. Its own token for payment-service comes from
 * the client-credentials registration {@code spring.security.oauth2.client.registration.payment-service}. The PG key
 * has no default: only the local profile gives it (application-local.yml).
 *
 * @param paymentServiceUrl   base URL of payment-service, whose sync API settles a payment with the PG
 * @param pgBaseUrl           base URL of the PG, whose transaction listing the ledger audit reads
 * @param pgSecretKey         the PG secret key for HTTP Basic auth (read-only use: the transaction listing)
 */
@Validated
@ConfigurationProperties("reconciliation")
public record ReconciliationProperties(@NotNull @DefaultValue("http://localhost:8082") URI paymentServiceUrl,
                                       @NotNull @DefaultValue("http://localhost:8090") URI pgBaseUrl,
                                       @NotBlank String pgSecretKey) {
}
