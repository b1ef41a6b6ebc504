package dev.payments.outbox.config;

import dev.payments.contracts.AggregateType;
import dev.payments.outbox.inbox.ConsumerFailures;
import dev.payments.outbox.inbox.DeadLetters;
import dev.payments.outbox.inbox.FailedDeliveries;
import dev.payments.outbox.inbox.InapplicableEvents;
import dev.payments.outbox.inbox.Inbox;
import dev.payments.outbox.inbox.ListenerPauses;
import dev.payments.outbox.inbox.RedriveSubscriptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.flywaydb.core.api.Location;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.kafka.KafkaAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.ListenerContainerRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.util.Arrays;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The inbox and the shared consumer error handling for a service that consumes events. */
@AutoConfiguration(after = {DataSourceAutoConfiguration.class, KafkaAutoConfiguration.class})
@ConditionalOnProperty(prefix = "inbox", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(InboxProperties.class)
public class InboxAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(InboxAutoConfiguration.class);

    @Bean
    FlywayConfigurationCustomizer inboxMigrations() {
        return configuration -> configuration.locations(Stream.concat(
                Arrays.stream(configuration.getLocations()), Stream.of(new Location("classpath:db/inbox")))
                .distinct().toArray(Location[]::new));
    }

    @Bean
    @ConditionalOnMissingBean
    Inbox inbox(DataSource dataSource, PlatformTransactionManager transactions, Environment environment,
                ObjectProvider<MeterRegistry> meters, ConsumerFailures failures,
                ObjectProvider<ObservationRegistry> observations) {
        return new Inbox(JdbcClient.create(dataSource), new TransactionTemplate(transactions),
                environment.getRequiredProperty("spring.application.name"), meters.getIfAvailable(SimpleMeterRegistry::new),
                failures, environment.getProperty("spring.kafka.listener.observation-enabled", Boolean.class, false)
                        ? observations.getIfAvailable(() -> ObservationRegistry.NOOP) : ObservationRegistry.NOOP);
    }

    /** The service's own {@link InapplicableEvents} beans together; none is fine (only the library's list then). */
    @Bean
    ConsumerFailures consumerFailures(ObjectProvider<InapplicableEvents> declared) {
        return new ConsumerFailures(new InapplicableEvents(declared.orderedStream()
                .flatMap(events -> events.exceptions().stream()).collect(Collectors.toSet())));
    }

    @Bean
    FailedDeliveries failedDeliveries(ConsumerFailures failures, ObjectProvider<MeterRegistry> meters) {
        return new FailedDeliveries(failures, meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    @Bean
    ListenerPauses listenerPauses() {
        return new ListenerPauses();
    }

    @Bean
    @ConditionalOnMissingBean(CommonErrorHandler.class)
    CommonErrorHandler deadLetterErrorHandler(KafkaOperations<?, ?> template, Environment environment,
                                              InboxProperties properties, ConsumerFailures failures,
                                              FailedDeliveries deliveries, ListenerPauses pauses) {
        return DeadLetters.errorHandler(template, environment.getRequiredProperty("spring.application.name"),
                properties.policy(), failures, deliveries, pauses);
    }

    /**
     * The failure and dead-letter counters of every listener's topics at 0, and how many listeners are paused
     * waiting out a back-off (with the database away, most of the time).
     */
    @Bean
    ApplicationListener<ContextRefreshedEvent> inboxMetricsAtStart(ObjectProvider<ListenerContainerRegistry> registry,
                                                                   FailedDeliveries deliveries,
                                                                   ObjectProvider<MeterRegistry> meters) {
        return event -> registry.ifUnique(containers -> {
            deliveries.registerAtZero(containers.getListenerContainers().stream()
                    .map(container -> container.getContainerProperties().getTopics())
                    .filter(Objects::nonNull).flatMap(Arrays::stream).collect(Collectors.toCollection(TreeSet::new)));
            meters.ifUnique(registered -> Gauge.builder("inbox.listeners.paused", containers,
                            all -> all.getListenerContainers().stream()
                                    .filter(MessageListenerContainer::isPauseRequested).count())
                    .description("Listener containers paused, e.g. between retries while the database is unavailable")
                    .register(registered));
        });
    }

    /**
     * Every listener also reads its topics' re-drive topics for its group (docs/decisions/dead-letter-redrive.md).
     * Static: Spring Kafka's annotation processor asks for enhancers before any ordinary bean exists.
     */
    @Bean
    @ConditionalOnProperty(prefix = "inbox.redrive", name = "enabled", matchIfMissing = true)
    static RedriveSubscriptions redriveSubscriptions(Environment environment) {
        return new RedriveSubscriptions(environment);
    }

    /**
     * The re-drive topics the listeners read, created before the listeners start (broker auto-creation is often off
     * in production). One partition: an operator's re-drives are few and read in the order they were sent.
     */
    @Bean
    @ConditionalOnProperty(prefix = "inbox.redrive", name = "enabled", matchIfMissing = true)
    SmartInitializingSingleton redriveTopics(RedriveSubscriptions subscriptions, ObjectProvider<KafkaAdmin> admin) {
        return () -> admin.ifAvailable(kafka -> {
            NewTopic[] topics = subscriptions.topics().stream()
                    .map(topic -> TopicBuilder.name(topic).partitions(1).build()).toArray(NewTopic[]::new);
            if (topics.length == 0) {
                return;
            }
            try {
                kafka.createOrModifyTopics(topics);
            } catch (RuntimeException e) {
                // As KafkaAdmin does for the declared topics: the service starts; the re-drive tool creates the
                // topic again before it sends to it, and the listener picks it up with its next metadata refresh.
                log.warn("Could not create the re-drive topics {}", subscriptions.topics(), e);
            }
        });
    }

    /**
     * Both event topics, created with the same partition count by whichever service starts first. With 3 replicas and
     * {@code min.insync.replicas} 2 (deploy/), the relays' {@code acks=all} means an event survives losing a broker.
     */
    @Bean
    KafkaAdmin.NewTopics eventTopics(@Value("${messaging.event-topic-partitions:4}") int partitions,
                                     @Value("${messaging.event-topic-replicas:1}") short replicas,
                                     @Value("${messaging.event-topic-min-insync-replicas:1}") int minInsyncReplicas) {
        return new KafkaAdmin.NewTopics(Arrays.stream(AggregateType.values())
                .map(type -> TopicBuilder.name(type.topic()).partitions(partitions).replicas(replicas)
                        .config(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(minInsyncReplicas)).build())
                .toArray(NewTopic[]::new));
    }
}
