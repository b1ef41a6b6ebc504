package dev.payments.notification.config;

import dev.payments.notification.application.DeliverNotifications;
import dev.payments.notification.application.Notifications;
import dev.payments.notification.application.NotificationSender;
import dev.payments.notification.domain.RetryPolicy;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(DeliveryProperties.class)
class NotificationServiceConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    DeliverNotifications deliverNotifications(Notifications notifications, NotificationSender sender,
                                              Clock clock, DeliveryProperties properties) {
        return new DeliverNotifications(notifications, sender, clock, new DeliverNotifications.Settings(
                properties.batchSize(), properties.claimLease(),
                new RetryPolicy(properties.maxAttempts(), properties.initialBackoff())));
    }
}
