package dev.payments.reconciliation.config;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.application.projection.ProjectEvent;
import dev.payments.reconciliation.application.projection.RefundViews;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

import java.time.Clock;

/** The projection: both topics applied to the views (the listeners and the JDBC adapters are components). */
@Configuration(proxyBeanMethods = false)
public class ProjectionConfiguration {

    @Bean
    ProjectEvent projectEvent(PaymentViews payments, OrderViews orders, EventHistory history, Clock clock,
                              RefundViews refunds) {
        return new ProjectEvent(payments, orders, history, clock, refunds);
    }

    /**
     * This consumer's dead-letter topics, declared rather than left to broker auto-creation (often off in
     * production). One partition: they are read by people and the replay tool, not at throughput.
     */
    @Bean
    KafkaAdmin.NewTopics deadLetterTopics(Environment environment) {
        String group = OwnConsumerGroup.of(environment);
        return new KafkaAdmin.NewTopics(
                TopicBuilder.name(Topics.deadLetter(Topics.ORDER_EVENTS, group)).partitions(1).build(),
                TopicBuilder.name(Topics.deadLetter(Topics.PAYMENT_EVENTS, group)).partitions(1).build());
    }
}
