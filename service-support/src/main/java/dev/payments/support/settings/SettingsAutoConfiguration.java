package dev.payments.support.settings;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/** Registers {@link SettingsCheck} in every service. */
@AutoConfiguration
public class SettingsAutoConfiguration {

    @Bean
    static SettingsCheck settingsCheck() {
        return new SettingsCheck();
    }
}
