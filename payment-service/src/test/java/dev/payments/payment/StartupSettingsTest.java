package dev.payments.payment;

import dev.payments.support.settings.RequiredSettingsContract;

import java.util.Map;

/** payment-service names every credential and secret it refuses to start without (RequiredSettingsContract). */
class StartupSettingsTest extends RequiredSettingsContract {

    @Override
    protected Class<?> application() {
        return PaymentServiceApplication.class;
    }

    @Override
    protected Map<String, String> requiredSettings() {
        return Map.of(
                "spring.datasource.url", "jdbc:postgresql://db.invalid:5432/payments",
                "spring.datasource.username", "payments_user",
                "spring.datasource.password", "not-a-password",
                "spring.kafka.properties.sasl.jaas.config", "not-a-login",
                "pg.client.secret-key", "sk_placeholder",
                "payment.approval.webhook-secret", "whsec_placeholder",
                "spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://idp.invalid",
                "spring.security.oauth2.resourceserver.jwt.audiences", "payments-api");
    }
}
