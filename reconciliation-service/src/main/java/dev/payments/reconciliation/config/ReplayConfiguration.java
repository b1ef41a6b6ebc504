package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.in.schedule.Cadence;
import dev.payments.reconciliation.adapter.in.schedule.DeadLetterCountSchedule;
import dev.payments.reconciliation.adapter.out.alert.DeadLetterMetrics;
import dev.payments.reconciliation.adapter.out.kafka.KafkaConsumerGroups;
import dev.payments.reconciliation.adapter.out.kafka.KafkaDeadLetterLog;
import dev.payments.reconciliation.adapter.out.kafka.KafkaRedriveChannel;
import dev.payments.reconciliation.adapter.out.kafka.KafkaEventLog;
import dev.payments.reconciliation.application.replay.AppliedEvents;
import dev.payments.reconciliation.application.replay.ConsumedTopics;
import dev.payments.reconciliation.application.replay.ConsumerGroups;
import dev.payments.reconciliation.application.replay.DeadLetterLog;
import dev.payments.reconciliation.application.replay.DeadLetterObserver;
import dev.payments.reconciliation.application.replay.ListDeadLetters;
import dev.payments.reconciliation.application.replay.RedriveChannel;
import dev.payments.reconciliation.application.replay.RedriveDeadLetters;
import dev.payments.reconciliation.application.replay.Redrives;
import dev.payments.reconciliation.application.replay.DryRunOrderReplay;
import dev.payments.reconciliation.application.replay.EventLog;
import dev.payments.reconciliation.application.replay.ReplayOrder;
import dev.payments.reconciliation.application.replay.ReplayTopic;
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

/**
 * Replay for incident recovery: consumer groups' offsets, reading one order's records back, and dead letters listed
 * and re-driven to the group that parked them (docs/decisions/dead-letter-redrive.md).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReplayProperties.class)
public class ReplayConfiguration {

    @Bean
    ConsumerGroups consumerGroups(KafkaAdmin admin, Environment environment, KafkaListenerEndpointRegistry listeners,
                                  ReplayProperties replay) {
        return new KafkaConsumerGroups(admin.getConfigurationProperties(), OwnConsumerGroup.of(environment), listeners,
                replay.groupEmptyTimeout());
    }

    @Bean
    EventLog eventLog(KafkaProperties kafka) {
        return new KafkaEventLog(kafka.buildConsumerProperties(null));
    }

    @Bean
    ConsumedTopics consumedTopics(ReplayProperties replay) {
        return new ConsumedTopics(replay.consumers());
    }

    @Bean
    DeadLetterLog deadLetterLog(KafkaProperties kafka) {
        return new KafkaDeadLetterLog(kafka.buildConsumerProperties(null));
    }

    /** The service's own KafkaTemplate and admin: the same spring.kafka.* settings (and security) as its listeners. */
    @Bean
    RedriveChannel redriveChannel(KafkaProperties kafka, KafkaTemplate<String, String> template, KafkaAdmin admin) {
        return new KafkaRedriveChannel(kafka.buildConsumerProperties(null), template, admin);
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
    RedriveDeadLetters redriveDeadLetters(ListDeadLetters list, Redrives redrives, RedriveChannel channel,
                                          DeadLetterObserver observer, PlatformTransactionManager transactions,
                                          Clock clock) {
        return new RedriveDeadLetters(list, redrives, channel, observer, new TransactionTemplate(transactions), clock);
    }

    @Bean
    Cadence deadLetterCountCadence(ReplayProperties replay) {
        return new Cadence(replay.deadLetterCount(), replay.deadLetterCount());
    }

    @Bean
    DeadLetterCountSchedule deadLetterCountSchedule(ListDeadLetters list, Cadence deadLetterCountCadence) {
        return new DeadLetterCountSchedule(list, deadLetterCountCadence);
    }

    @Bean
    ReplayOrder replayOrder(DryRunOrderReplay dryRun, RedriveChannel channel, Redrives redrives,
                            ConsumedTopics consumed, Clock clock) {
        return new ReplayOrder(dryRun, channel, redrives, consumed, clock);
    }

    @Bean
    ReplayTopic replayTopic(ConsumerGroups groups, ReplayProperties replay) {
        return new ReplayTopic(groups, replay.consumers());
    }

    @Bean
    DryRunOrderReplay dryRunOrderReplay(EventLog log, ConsumerGroups groups, AppliedEvents ownInbox,
                                        ReplayProperties replay, Environment environment) {
        return new DryRunOrderReplay(log, groups, ownInbox, replay.consumers(), OwnConsumerGroup.of(environment));
    }
}
