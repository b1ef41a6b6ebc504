package dev.payments.reconciliation.config;

import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped settler numbers keep the promises docs/reconciliation.md makes, in the code and in application.yml. */
class SettlerPropertiesTest {

    /** payment-service's {@code payment.approval.deadline}: no live request is older. */
    private static final Duration APPROVAL_DEADLINE = Duration.ofSeconds(20);

    private final Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

    @Test
    void theDefaultsSettleAnUnknownWithin30SecondsOfThePgRecoveringAndNeverRaceALiveRequest() throws IOException {
        for (SettlerProperties settler : List.of(codeDefaults(), shipped())) {
            assertThat(settler.maxBackoff().plus(settler.interval())).isLessThanOrEqualTo(Duration.ofSeconds(30));
            assertThat(settler.settleDeadline()).isGreaterThan(APPROVAL_DEADLINE);
            assertThat(settler.stopAfterFailures()).isEqualTo(3);
            assertThat(settler.claimLease()).isGreaterThan(settler.syncTimeout());
            assertThat(validator.validate(settler)).isEmpty();
        }
        assertThat(shipped()).isEqualTo(codeDefaults());
    }

    @Test
    void aLeaseShorterThanTheSyncTimeoutIsRefusedAtStartUp() {
        SettlerProperties settler = bind(Map.of("reconciliation.settler.claim-lease", "10s",
                "reconciliation.settler.sync-timeout", "40s"));
        assertThat(validator.validate(settler)).extracting(v -> v.getMessage())
                .singleElement().asString().contains("claim-lease");
    }

    @Test
    void aCapBelowTheFirstWaitIsRefused() {
        SettlerProperties settler = bind(Map.of("reconciliation.settler.initial-backoff", "30s",
                "reconciliation.settler.max-backoff", "5s"));
        assertThat(validator.validate(settler)).isNotEmpty();
    }

    private static SettlerProperties codeDefaults() {
        return bind(Map.of());
    }

    private static SettlerProperties shipped() throws IOException {
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("application",
                new ClassPathResource("application.yml"));
        return new Binder(ConfigurationPropertySources.from(yaml)).bindOrCreate("reconciliation.settler",
                SettlerProperties.class);
    }

    private static SettlerProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("reconciliation.settler",
                SettlerProperties.class);
    }
}
