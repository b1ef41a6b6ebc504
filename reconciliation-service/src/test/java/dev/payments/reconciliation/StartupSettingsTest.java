package dev.payments.reconciliation;

import dev.payments.support.settings.RequiredSettingsContract;

import java.util.Map;

/** reconciliation-service names every credential and secret it refuses to start without (RequiredSettingsContract). */
class StartupSettingsTest extends RequiredSettingsContract {

    @Override
    protected Class<?> application() {
        return ReconciliationApplication.class;
    }

    @Override
    protected Map<String, String> requiredSettings() {
        return Map.of(
                "spring.datasource.url", "jdbc:postgresql://db.invalid:5432/reconciliation",
                "spring.datasource.username", "reconciliation_user",
                "spring.datasource.password", "not-a-password",
                "spring.kafka.properties.sasl.jaas.config", "not-a-login",
                "reconciliation.pg-secret-key", "sk_placeholder",
                "spring.security.oauth2.client.registration.payment-service.client-secret", "placeholder-secret",
                "spring.security.oauth2.client.provider.payments-issuer.token-uri", "https://idp.invalid/oauth2/token",
                "spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://idp.invalid",
                "spring.security.oauth2.resourceserver.jwt.audiences", "payments-api");
    }
}
