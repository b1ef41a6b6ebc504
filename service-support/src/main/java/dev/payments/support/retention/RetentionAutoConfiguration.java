package dev.payments.support.retention;

import dev.payments.support.schedule.ClusterJobs;
import dev.payments.support.schedule.ClusterJobsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * The retention job of a service with a database and at least one {@link RetentionRule} bean (its configuration
 * declares the rules of its tables). Off with {@code retention.enabled=false}.
 */
@AutoConfiguration(after = ClusterJobsAutoConfiguration.class)
@ConditionalOnBean({ClusterJobs.class, RetentionRule.class, DataSource.class})
@ConditionalOnProperty(name = "retention.enabled", matchIfMissing = true)
@EnableConfigurationProperties(RetentionProperties.class)
@EnableScheduling
public class RetentionAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RetentionAutoConfiguration.class);

    @Bean
    Retention retention(DataSource dataSource, ObjectProvider<RetentionRule> rules, RetentionProperties properties,
                        ObjectProvider<MeterRegistry> meters) {
        Retention retention = new Retention(new JdbcTemplate(dataSource), rules.orderedStream().toList(), properties,
                meters.getIfAvailable(SimpleMeterRegistry::new));
        log.info("Retention every {} in batches of {}: {}", properties.cycle(), properties.batchSize(),
                retention.keeps());
        return retention;
    }

    /** A replica that died mid-cycle keeps the others out for at most a cycle and 10 minutes. */
    @Bean
    RetentionJob retentionJob(Retention retention, ClusterJobs jobs, RetentionProperties properties) {
        return new RetentionJob(retention,
                jobs.job("retention", properties.cycle(), properties.cycle().plus(Duration.ofMinutes(10))));
    }
}
