package dev.payments.reconciliation.config;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.application.projection.ProjectEvent;
import dev.payments.reconciliation.application.projection.RefundViews;
import dev.payments.reconciliation.application.queries.ShowOrder;
import dev.payments.reconciliation.application.queries.ShowPayment;
import dev.payments.reconciliation.application.queries.SummarizeBooks;
import dev.payments.support.retention.RetentionRule;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

import java.time.Clock;
import java.time.Duration;

import static dev.payments.reconciliation.config.ReconciliationConfiguration.ownConsumerGroup;

/**
 * The projection: both topics applied to the views (the listeners and the JDBC adapters are components), and the
 * read API's use cases over them. The views themselves are kept for ever: they are what the ledger audit matches the
 * PG's books against (docs/operations.md, "Retention").
 */
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
        String group = ownConsumerGroup(environment);
        return new KafkaAdmin.NewTopics(
                TopicBuilder.name(Topics.deadLetter(Topics.ORDER_EVENTS, group)).partitions(1).build(),
                TopicBuilder.name(Topics.deadLetter(Topics.PAYMENT_EVENTS, group)).partitions(1).build());
    }

    @Bean
    ShowPayment showPayment(PaymentViews payments, RefundViews refunds, EventHistory history) {
        return new ShowPayment(payments, refunds, history);
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
     * Every projected event after 180 days: a payment's timeline stays answerable through the card networks' 120-day
     * dispute window, and its current state lives on in the projection.
     */
    @Bean
    RetentionRule projectedEventRetention() {
        return RetentionRule.olderThan("projected-events", "projected_event", "received_at", Duration.ofDays(180));
    }
}
