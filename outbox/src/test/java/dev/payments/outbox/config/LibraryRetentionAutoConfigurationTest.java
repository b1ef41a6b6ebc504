package dev.payments.outbox.config;

import dev.payments.support.retention.Retention;
import dev.payments.support.retention.RetentionAutoConfiguration;
import dev.payments.support.retention.RetentionRule;
import dev.payments.support.schedule.ClusterJobsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import javax.sql.DataSource;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which retention rules a service gets from the library: the inbox's with the inbox, the outbox's with the outbox,
 * and the service-support job finds them under the keeps' usual names. No database is opened.
 */
class LibraryRetentionAutoConfigurationTest {

    private final ApplicationContextRunner service = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(LibraryRetentionAutoConfiguration.class,
                    ClusterJobsAutoConfiguration.class, RetentionAutoConfiguration.class))
            .withBean(DataSource.class, SimpleDriverDataSource::new);

    @Test
    void aServiceThatPublishesAndConsumesGetsTheInboxAndOutboxRulesAndTheirKeepsAreSettings() {
        service.withPropertyValues("retention.keep.inbox=20d", "retention.keep.outbox=1h").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeansOfType(RetentionRule.class).values()).extracting(RetentionRule::name)
                    .containsExactlyInAnyOrder("inbox", "outbox");
            assertThat(context.getBean(Retention.class).keeps())
                    .containsEntry("inbox", Duration.ofDays(20)).containsEntry("outbox", Duration.ofHours(1));
        });
    }

    @Test
    void aConsumerWithoutAnOutboxGetsOnlyTheInboxRule() {
        service.withPropertyValues("outbox.enabled=false").run(context ->
                assertThat(context.getBean(Retention.class).keeps()).containsOnlyKeys("inbox")
                        .containsEntry("inbox", Duration.ofDays(30)));
    }

    @Test
    void aKeepForTheOutboxOfAServiceWithoutOneIsRefusedAtStartUp() {
        service.withPropertyValues("outbox.enabled=false", "retention.keep.outbox=1h").run(context ->
                assertThat(context).getFailure().rootCause().hasMessageContaining("retention.keep.outbox names no "
                        + "retention rule of this service"));
    }

    @Test
    void withoutServiceSupportThereIsNoRule() {
        new ApplicationContextRunner().withClassLoader(new FilteredClassLoader(RetentionRule.class))
                .withConfiguration(AutoConfigurations.of(LibraryRetentionAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("inboxRetention")
                        .doesNotHaveBean("outboxRetention"));
    }
}
