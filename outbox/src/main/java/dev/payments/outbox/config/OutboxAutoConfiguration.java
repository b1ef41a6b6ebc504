package dev.payments.outbox.config;

import dev.payments.outbox.OutboxWriter;
import dev.payments.outbox.TraceContext;
import dev.payments.outbox.relay.KafkaConnection;
import dev.payments.outbox.relay.OutboxBacklog;
import dev.payments.outbox.relay.OutboxRelay;
import dev.payments.outbox.relay.PublishTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.flywaydb.core.api.Location;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.boot.autoconfigure.kafka.KafkaAutoConfiguration;
import org.springframework.boot.autoconfigure.kafka.KafkaProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.Arrays;
import java.util.stream.Stream;

/** The outbox for a service that publishes events: its migration, the writer and the relay. */
@AutoConfiguration(after = {DataSourceAutoConfiguration.class, KafkaAutoConfiguration.class})
@ConditionalOnProperty(prefix = "outbox", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(OutboxProperties.class)
public class OutboxAutoConfiguration {

    /**
     * The library's migrations are numbered 0.1.x (outbox) and 0.2.x (inbox), below every service's own, and share
     * the service's history table. A database that already has service migrations gets a new library migration
     * out of order, which is what it is: the library's schema moves independently of the service's.
     */
    @Bean
    FlywayConfigurationCustomizer outboxMigrations() {
        return configuration -> configuration.outOfOrder(true).locations(Stream.concat(
                Arrays.stream(configuration.getLocations()), Stream.of(new Location("classpath:db/outbox")))
                .distinct().toArray(Location[]::new));
    }

    @Bean
    @ConditionalOnMissingBean
    OutboxWriter outboxWriter(DataSource dataSource, ObjectProvider<Clock> clock, ObjectProvider<TraceContext> traceContext,
                              ObjectProvider<MeterRegistry> meters) {
        return new OutboxWriter(JdbcClient.create(dataSource), clock.getIfAvailable(Clock::systemUTC),
                traceContext.getIfAvailable(() -> TraceContext.NONE), meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    @Bean
    @ConditionalOnProperty(prefix = "outbox.relay", name = "enabled", matchIfMissing = true)
    OutboxRelay outboxRelay(DataSourceProperties dataSource, KafkaProperties kafka, OutboxProperties properties,
                            Environment environment, ObjectProvider<MeterRegistry> meters, ObjectProvider<Clock> clock,
                            ObjectProvider<PublishTracing> tracing, ObjectProvider<SslBundles> sslBundles) {
        // The service's own spring.kafka.* login (SASL/SCRAM, TLS), as its producers and listeners use it.
        KafkaConnection connection = KafkaConnection.of(kafka.buildProducerProperties(sslBundles.getIfAvailable()));
        return new OutboxRelay(dataSource.determineUrl(), dataSource.determineUsername(), dataSource.determinePassword(),
                connection, properties,
                environment.getRequiredProperty("spring.application.name"),
                meters.getIfAvailable(SimpleMeterRegistry::new), clock.getIfAvailable(Clock::systemUTC),
                tracing.getIfAvailable(() -> PublishTracing.NONE));
    }

    /** The relay lag read from the database, for an operator's overview (any replica answers the same). */
    @Bean
    @ConditionalOnProperty(prefix = "outbox.relay", name = "enabled", matchIfMissing = true)
    OutboxBacklog outboxBacklog(DataSource dataSource, OutboxRelay relay, ObjectProvider<Clock> clock) {
        return new OutboxBacklog(dataSource, relay.slotName(), clock.getIfAvailable(Clock::systemUTC));
    }
}
