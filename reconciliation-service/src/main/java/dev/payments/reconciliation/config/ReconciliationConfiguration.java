package dev.payments.reconciliation.config;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.EventHistory;
import dev.payments.reconciliation.application.OrderViews;
import dev.payments.reconciliation.application.PaymentViews;
import dev.payments.reconciliation.application.ProjectEvent;
import dev.payments.reconciliation.application.ShowOrder;
import dev.payments.reconciliation.application.ShowPayment;
import dev.payments.reconciliation.application.SummarizeBooks;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

import java.time.Clock;

/** The use cases are plain classes (no Spring inside the application layer); they are wired here. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReconciliationProperties.class)
public class ReconciliationConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    ProjectEvent projectEvent(PaymentViews payments, OrderViews orders, EventHistory history, Clock clock) {
        return new ProjectEvent(payments, orders, history, clock);
    }

    @Bean
    ShowPayment showPayment(PaymentViews payments, EventHistory history) {
        return new ShowPayment(payments, history);
    }

    @Bean
    ShowOrder showOrder(OrderViews orders, PaymentViews payments, EventHistory history) {
        return new ShowOrder(orders, payments, history);
    }

    @Bean
    SummarizeBooks summarizeBooks(PaymentViews payments, OrderViews orders) {
        return new SummarizeBooks(payments, orders);
    }

    /**
     * This consumer's dead-letter topics, declared rather than left to broker auto-creation (often off in
     * production). One partition: they are read by people and the replay tool, not at throughput.
     */
    @Bean
    KafkaAdmin.NewTopics deadLetterTopics(Environment environment) {
        String group = environment.getProperty("spring.kafka.consumer.group-id",
                environment.getRequiredProperty("spring.application.name"));
        return new KafkaAdmin.NewTopics(
                TopicBuilder.name(Topics.deadLetter(Topics.ORDER_EVENTS, group)).partitions(1).build(),
                TopicBuilder.name(Topics.deadLetter(Topics.PAYMENT_EVENTS, group)).partitions(1).build());
    }
}
