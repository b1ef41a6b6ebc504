package dev.payments.order;

import dev.payments.support.settings.RequiredSettingsContract;

import java.util.Map;

/** order-service names every credential and secret it refuses to start without (RequiredSettingsContract). */
class StartupSettingsTest extends RequiredSettingsContract {

    @Override
    protected Class<?> application() {
        return OrderServiceApplication.class;
    }

    @Override
    protected Map<String, String> requiredSettings() {
        return Map.of(
                "spring.datasource.url", "jdbc:postgresql://db.invalid:5432/orders",
                "spring.datasource.username", "orders_user",
                "spring.datasource.password", "not-a-password",
                "spring.kafka.properties.sasl.jaas.config", "not-a-login",
                "spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://idp.invalid",
                "spring.security.oauth2.resourceserver.jwt.audiences", "payments-api");
    }
}
