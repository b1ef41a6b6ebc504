package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.out.alert.DeadLetterMetrics;
import dev.payments.reconciliation.adapter.out.kafka.KafkaConsumerGroups;
import dev.payments.reconciliation.adapter.out.kafka.KafkaTopics;
import dev.payments.reconciliation.application.operations.AppliedEvents;
import dev.payments.reconciliation.application.operations.ConsumedTopics;
import dev.payments.reconciliation.application.operations.ConsumerGroups;
import dev.payments.reconciliation.application.operations.DeadLetterLog;
import dev.payments.reconciliation.application.operations.DeadLetterObserver;
import dev.payments.reconciliation.application.operations.ListDeadLetters;
import dev.payments.reconciliation.application.operations.RedriveChannel;
import dev.payments.reconciliation.application.operations.RedriveDeadLetters;
import dev.payments.reconciliation.application.operations.Redrives;
import dev.payments.reconciliation.application.operations.DryRunOrderReplay;
import dev.payments.reconciliation.application.operations.EventLog;
import dev.payments.reconciliation.application.operations.ReplayOrder;
import dev.payments.reconciliation.application.operations.ReplayTopic;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.kafka.KafkaProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

import static dev.payments.reconciliation.config.ReconciliationConfiguration.ownConsumerGroup;

/**
 * The operators' tools over every service's consumer groups (docs/decisions/operations-slice.md): replay from a
 * timestamp, one order's records read back and re-sent, and dead letters listed and re-driven to the group that parked
 * them (docs/decisions/dead-letter-redrive.md).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OperationsProperties.class)
public class OperationsConfiguration {

    @Bean
    ConsumerGroups consumerGroups(KafkaAdmin admin, Environment environment, KafkaListenerEndpointRegistry listeners,
                                  OperationsProperties replay) {
        return new KafkaConsumerGroups(admin.getConfigurationProperties(), ownConsumerGroup(environment), listeners,
                replay.groupEmptyTimeout());
    }

    @Bean
    ConsumedTopics consumedTopics(OperationsProperties replay) {
        return new ConsumedTopics(replay.consumers());
    }

    /**
     * The event log, the dead-letter log and the re-drive channel: the service's own consumer settings, KafkaTemplate
     * and admin, so the same spring.kafka.* settings (and security) as its listeners.
     */
    @Bean
    KafkaTopics kafkaTopics(KafkaProperties kafka, KafkaTemplate<String, String> template, KafkaAdmin admin) {
        return new KafkaTopics(kafka.buildConsumerProperties(null), template, admin);
    }

    @Bean
    DeadLetterMetrics deadLetterMetrics(MeterRegistry meters, ConsumedTopics consumed) {
        return new DeadLetterMetrics(meters, consumed.groups());
    }

    @Bean
    ListDeadLetters listDeadLetters(DeadLetterLog log, Redrives redrives, ConsumedTopics consumed,
                                    DeadLetterObserver observer) {
        return new ListDeadLetters(log, redrives, consumed, observer);
    }

    @Bean
    RedriveDeadLetters redriveDeadLetters(ListDeadLetters list, ConsumedTopics consumed, Redrives redrives,
                                          RedriveChannel channel, DeadLetterObserver observer,
                                          PlatformTransactionManager transactions, Clock clock) {
        return new RedriveDeadLetters(list, consumed, redrives, channel, observer,
                new TransactionTemplate(transactions), clock);
    }

    @Bean
    ReplayOrder replayOrder(DryRunOrderReplay dryRun, RedriveChannel channel, Redrives redrives,
                            ConsumedTopics consumed, Clock clock) {
        return new ReplayOrder(dryRun, channel, redrives, consumed, clock);
    }

    @Bean
    ReplayTopic replayTopic(ConsumerGroups groups, OperationsProperties replay) {
        return new ReplayTopic(groups, replay.consumers());
    }

    @Bean
    DryRunOrderReplay dryRunOrderReplay(EventLog log, ConsumerGroups groups, AppliedEvents ownInbox,
                                        OperationsProperties replay, Environment environment) {
        return new DryRunOrderReplay(log, groups, ownInbox, replay.consumers(), ownConsumerGroup(environment));
    }
}
