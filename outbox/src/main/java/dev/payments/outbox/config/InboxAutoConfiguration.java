package dev.payments.outbox.config;

import dev.payments.contracts.AggregateType;
import dev.payments.outbox.inbox.DeadLetters;
import dev.payments.outbox.inbox.Inbox;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.flywaydb.core.api.Location;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.kafka.KafkaAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

/** The inbox and the shared consumer error handling for a service that consumes events. */
@AutoConfiguration(after = {DataSourceAutoConfiguration.class, KafkaAutoConfiguration.class})
@ConditionalOnProperty(prefix = "inbox", name = "enabled", matchIfMissing = true)
public class InboxAutoConfiguration {

    @Bean
    FlywayConfigurationCustomizer inboxMigrations() {
        return configuration -> configuration.locations(Stream.concat(
                Arrays.stream(configuration.getLocations()), Stream.of(new Location("classpath:db/inbox")))
                .distinct().toArray(Location[]::new));
    }

    @Bean
    @ConditionalOnMissingBean
    Inbox inbox(DataSource dataSource, PlatformTransactionManager transactions, Environment environment,
                ObjectProvider<MeterRegistry> meters) {
        return new Inbox(JdbcClient.create(dataSource), new TransactionTemplate(transactions),
                environment.getRequiredProperty("spring.application.name"), meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    @Bean
    @ConditionalOnMissingBean(CommonErrorHandler.class)
    CommonErrorHandler deadLetterErrorHandler(KafkaOperations<?, ?> template, Environment environment,
                                              @Value("${inbox.max-retries:4}") int maxRetries,
                                              @Value("${inbox.initial-backoff:200ms}") Duration initialBackoff,
                                              ObjectProvider<MeterRegistry> meters) {
        return DeadLetters.errorHandler(template, environment.getRequiredProperty("spring.application.name"),
                maxRetries, initialBackoff, meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    /** Both event topics, created with the same partition count by whichever service starts first. */
    @Bean
    KafkaAdmin.NewTopics eventTopics(@Value("${messaging.event-topic-partitions:4}") int partitions,
                                     @Value("${messaging.event-topic-replicas:1}") short replicas) {
        return new KafkaAdmin.NewTopics(Arrays.stream(AggregateType.values())
                .map(type -> TopicBuilder.name(type.topic()).partitions(partitions).replicas(replicas).build())
                .toArray(NewTopic[]::new));
    }
}
