package dev.payments.support.schedule;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.flywaydb.core.api.Location;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Arrays;
import java.util.stream.Stream;

/**
 * {@link ClusterJobs} for a service with a database: ShedLock's JDBC provider on the service's own DataSource, its
 * table made by Flyway ({@code db/shedlock}), times taken from the database so replicas' clocks need not agree.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnBean(DataSource.class)
public class ClusterJobsAutoConfiguration {

    @Bean
    FlywayConfigurationCustomizer clusterJobMigrations() {
        return configuration -> configuration.locations(Stream.concat(
                        Arrays.stream(configuration.getLocations()), Stream.of(new Location("classpath:db/shedlock")))
                .distinct().toArray(Location[]::new));
    }

    /** @param replica how the lock row names its holder; the host and pid unless the deployment says otherwise */
    @Bean
    @ConditionalOnMissingBean
    LockProvider clusterJobLocks(DataSource dataSource,
                                 @Value("${scheduling.replica-name:}") String replica) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        return new LockRowsFirst(new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(jdbc)
                .withTableName("shedlock")
                .usingDbTime()
                .withLockedByValue(replica.isBlank() ? defaultReplicaName() : replica)
                .build()), jdbc);
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterJobs clusterJobs(LockProvider locks, ObjectProvider<MeterRegistry> meters) {
        return new ClusterJobs(new DefaultLockingTaskExecutor(locks), Clock.systemUTC(),
                meters.getIfAvailable(SimpleMeterRegistry::new));
    }

    private static String defaultReplicaName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        // Several replicas on one machine (the local stack) share a host name; the pid tells them apart.
        return host + "/" + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
