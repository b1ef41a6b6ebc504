package dev.payments.support.settings;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.mock.env.MockEnvironment;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RequiredSettingsTest {

    @Test
    void everyMissingOrBlankSettingIsNamedWithItsEnvironmentVariable() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("settings.required.pg", "pg.client.secret-key, payment.approval.webhook-secret")
                .withProperty("payment.approval.webhook-secret", "  ");

        assertThat(RequiredSettings.missing(environment)).containsExactly(
                "payment.approval.webhook-secret is not set (environment: PAYMENT_APPROVAL_WEBHOOKSECRET)",
                "pg.client.secret-key is not set (environment: PG_CLIENT_SECRETKEY)");
    }

    @Test
    void groupsFromEveryPropertySourceAddUpAndAnEmptyGroupIsDropped() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("service", Map.of(
                "settings.required.pg", "pg.client.secret-key", "settings.required.issuer", "")));
        environment.getPropertySources().addLast(new MapPropertySource("serviceDefaults", Map.of(
                "settings.required.database", "spring.datasource.password")));

        assertThat(RequiredSettings.missing(environment)).extracting(line -> line.substring(0, line.indexOf(' ')))
                .containsExactly("pg.client.secret-key", "spring.datasource.password");
    }

    @Test
    void aSettingThatRefersToAnUnsetVariableIsMissingNotAnError() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("settings.required.pg", "pg.client.secret-key")
                .withProperty("pg.client.secret-key", "${PG_CLIENT_SECRET_KEY_THAT_IS_NOT_SET}");

        assertThat(RequiredSettings.missing(environment)).singleElement().asString()
                .startsWith("pg.client.secret-key is not set: ").contains("PG_CLIENT_SECRET_KEY_THAT_IS_NOT_SET");
    }

    @Test
    void givenSettingsAreNotReported() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("settings.required.pg", "pg.client.secret-key")
                .withProperty("pg.client.secret-key", "sk_live_x");

        assertThat(RequiredSettings.missing(environment)).isEmpty();
    }
}
