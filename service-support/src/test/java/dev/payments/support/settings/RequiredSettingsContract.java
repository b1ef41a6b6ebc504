package dev.payments.support.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static dev.payments.support.settings.StartupAttempt.names;
import static dev.payments.support.settings.StartupAttempt.refusedSettings;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every service's StartupSettingsTest proves (the service-support test-jar): started as a deployment would,
 * without the local profile, no credential or secret has a default, and start-up fails naming each one that is
 * missing, before anything is connected to. A service's test names its application and what it must be given.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RequiredSettingsContract {

    /** The service's {@code @SpringBootApplication}. */
    protected abstract Class<?> application();

    /** Everything it must be given, with values that work nowhere. */
    protected abstract Map<String, String> requiredSettings();

    @Test
    void withNothingGivenEverySecretIsNamed() {
        assertThat(names(refusedSettings(application(), Map.of())))
                .containsExactlyInAnyOrderElementsOf(requiredSettings().keySet());
    }

    @ParameterizedTest
    @MethodSource("settingNames")
    void startUpFailsNamingTheOneThatIsMissing(String missing) {
        Map<String, String> given = new HashMap<>(requiredSettings());
        given.remove(missing);

        assertThat(names(refusedSettings(application(), given))).containsExactly(missing);
    }

    Set<String> settingNames() {
        return requiredSettings().keySet();
    }
}
