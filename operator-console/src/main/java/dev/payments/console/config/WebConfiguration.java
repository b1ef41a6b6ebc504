package dev.payments.console.config;

import dev.payments.console.adapter.in.web.OverviewSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    @Bean
    OverviewSettings overviewSettings(ConsoleProperties properties) {
        return new OverviewSettings(properties.deadLetterGroups(), properties.overviewRefresh());
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
