package dev.payments.notification.config;

import dev.payments.notification.adapter.in.schedule.DeliveryScheduler;
import dev.payments.notification.application.DeliverNotifications;
import dev.payments.notification.application.ListNotifications;
import dev.payments.notification.application.NotificationSender;
import dev.payments.notification.application.Notifications;
import dev.payments.notification.application.RecordPaymentNotifications;
import dev.payments.notification.domain.RetryPolicy;
import dev.payments.support.schedule.ClusterJobs;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import dev.payments.support.security.ApiAccess;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpMethod;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties(DeliveryProperties.class)
class NotificationServiceConfiguration {

    /** Who may call what (docs/security.md); the shared resource-server chain of service-support enforces it. */
    @Bean
    ApiAccess apiAccess() {
        return ApiAccess.builder().members(HttpMethod.GET, "/api/notifications")
                .scope("notifications:read", HttpMethod.GET, "/api/operator-notifications").build();
    }

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    RecordPaymentNotifications recordPaymentNotifications(Notifications notifications,
                                                          TransactionTemplate transaction, Clock clock) {
        return new RecordPaymentNotifications(notifications, transaction, clock);
    }

    @Bean
    ListNotifications listNotifications(Notifications notifications) {
        return new ListNotifications(notifications);
    }

    @Bean
    DeliverNotifications deliverNotifications(Notifications notifications, NotificationSender sender,
                                              TransactionTemplate transaction, Clock clock,
                                              DeliveryProperties properties) {
        return new DeliverNotifications(notifications, sender, transaction, clock, new DeliverNotifications.Settings(
                properties.batchSize(), properties.claimLease(),
                new RetryPolicy(properties.maxAttempts(), properties.initialBackoff()), properties.recordWithin()));
    }

    /**
     * Off on a replica with {@code notification.delivery.enabled=false}. One replica per poll interval delivers; a run
     * that outlives its lock (a claim lease) may overlap another, and the claims keep them apart.
     */
    @Bean
    @ConditionalOnProperty(prefix = "notification.delivery", name = "enabled", matchIfMissing = true)
    DeliveryScheduler deliveryScheduler(DeliverNotifications deliverNotifications, DeliveryProperties properties,
                                        ClusterJobs jobs) {
        return new DeliveryScheduler(deliverNotifications, properties.pollInterval(), properties.batchSize(),
                jobs.job("notification.delivery", properties.pollInterval(), properties.claimLease()));
    }
}
