package dev.payments.payment.config;

import dev.payments.payment.adapter.in.schedule.RenewalSchedule;
import dev.payments.payment.application.PaymentAttempts;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.renewal.CancelSubscription;
import dev.payments.payment.application.renewal.CreateSubscription;
import dev.payments.payment.application.renewal.RenewSubscriptions;
import dev.payments.payment.application.renewal.RenewalCharges;
import dev.payments.payment.application.renewal.RenewalMetrics;
import dev.payments.payment.application.renewal.RenewalRuns;
import dev.payments.payment.application.renewal.Subscriptions;
import dev.payments.payment.domain.renewal.DunningPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Subscriptions and the renewal run: its use cases, its schedule and the executor of operator-triggered runs. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RenewalProperties.class)
class RenewalConfiguration {

    @Bean
    RenewalMetrics renewalMetrics(MeterRegistry meters) {
        return new RenewalMetrics(meters);
    }

    @Bean(destroyMethod = "requestStop")
    RenewSubscriptions renewSubscriptions(RenewalProperties properties, RenewalCharges charges,
                                          Subscriptions subscriptions, RenewalRuns runs, Payments payments,
                                          PaymentAttempts attempts, PaymentGateway gateway,
                                          TransactionTemplate transaction, RenewalMetrics metrics, Clock clock) {
        return new RenewSubscriptions(charges, subscriptions, runs, payments, attempts, gateway, transaction, metrics,
                clock, properties.zone(), properties.workers(), properties.chargeDeadline(),
                new DunningPolicy(properties.dunningRetries(), properties.retryNothingCharged()));
    }

    @Bean
    CreateSubscription createSubscription(RenewalProperties properties, Subscriptions subscriptions,
                                          TransactionTemplate transaction, Clock clock) {
        return new CreateSubscription(subscriptions, transaction, clock, properties.zone());
    }

    @Bean
    CancelSubscription cancelSubscription(Subscriptions subscriptions, RenewalCharges charges,
                                          TransactionTemplate transaction) {
        return new CancelSubscription(subscriptions, charges, transaction);
    }

    /**
     * Runs an operator triggered, at most two at once per replica (more queue); the HTTP answer does not wait for them.
     * Two, so a second run can be started beside a stuck-looking one; the pg-renewal bulkhead bounds them together.
     */
    @Bean(destroyMethod = "shutdownNow")
    ExecutorService renewalRunExecutor() {
        return Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "renewal-run");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Bean
    RenewalSchedule renewalSchedule(RenewSubscriptions renew, RenewalProperties properties) {
        return new RenewalSchedule(renew, properties.schedule());
    }
}
