package dev.payments.reconciliation.config;

import dev.payments.reconciliation.adapter.out.kafka.KafkaConsumerGroups;
import dev.payments.reconciliation.adapter.out.kafka.KafkaEventLog;
import dev.payments.reconciliation.application.replay.AppliedEvents;
import dev.payments.reconciliation.application.replay.ConsumerGroups;
import dev.payments.reconciliation.application.replay.DryRunOrderReplay;
import dev.payments.reconciliation.application.replay.EventLog;
import dev.payments.reconciliation.application.replay.ReplayTopic;
import org.springframework.boot.autoconfigure.kafka.KafkaProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;

/** Replay for incident recovery: consumer groups' offsets and reading one order's records back. */
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
    ReplayTopic replayTopic(ConsumerGroups groups, ReplayProperties replay) {
        return new ReplayTopic(groups, replay.consumers());
    }

    @Bean
    DryRunOrderReplay dryRunOrderReplay(EventLog log, ConsumerGroups groups, AppliedEvents ownInbox,
                                        ReplayProperties replay, Environment environment) {
        return new DryRunOrderReplay(log, groups, ownInbox, replay.consumers(), OwnConsumerGroup.of(environment));
    }
}
