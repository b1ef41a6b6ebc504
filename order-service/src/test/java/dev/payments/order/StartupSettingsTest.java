package dev.payments.order;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static dev.payments.support.settings.StartupAttempt.names;
import static dev.payments.support.settings.StartupAttempt.refusedSettings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * order-service started as a deployment would, without the local profile: no credential or secret has a
 * default, and start-up fails naming each one that is missing, before anything is connected to.
 */
class StartupSettingsTest {

    /** Everything it must be given, with values that work nowhere. */
    private static final Map<String, String> SECRETS = Map.of(
            "spring.datasource.url", "jdbc:postgresql://db.invalid:5432/orders",
            "spring.datasource.username", "orders_user",
            "spring.datasource.password", "not-a-password",
            "spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://idp.invalid",
            "spring.security.oauth2.resourceserver.jwt.audiences", "payments-api");

    @Test
    void withNothingGivenEverySecretIsNamed() {
        assertThat(names(refusedSettings(OrderServiceApplication.class, Map.of())))
                .containsExactlyInAnyOrderElementsOf(SECRETS.keySet());
    }

    @ParameterizedTest
    @MethodSource("secrets")
    void startUpFailsNamingTheOneThatIsMissing(String missing) {
        Map<String, String> given = new HashMap<>(SECRETS);
        given.remove(missing);

        assertThat(names(refusedSettings(OrderServiceApplication.class, given))).containsExactly(missing);
    }

    static Set<String> secrets() {
        return SECRETS.keySet();
    }
}
