package dev.payments.outbox.config;

import dev.payments.outbox.OutboxRetention;
import dev.payments.outbox.inbox.InboxRetention;
import dev.payments.support.retention.RetentionRule;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * The retention rules of the library's own tables, for a service that runs service-support's retention job: the
 * inbox's rule comes with the inbox, the outbox's with the outbox (the switches of {@link InboxAutoConfiguration} and
 * {@link OutboxAutoConfiguration}), so a service declares only the rules of its own tables and sets the keeps as
 * {@code retention.keep.inbox} and {@code retention.keep.outbox} (docs/operations.md, "Retention"). Before the job's
 * auto-configuration, which starts only when it finds a rule.
 */
@AutoConfiguration(beforeName = "dev.payments.support.retention.RetentionAutoConfiguration")
@ConditionalOnClass(RetentionRule.class)
public class LibraryRetentionAutoConfiguration {

    @Bean
    @ConditionalOnProperty(prefix = "inbox", name = "enabled", matchIfMissing = true)
    RetentionRule inboxRetention() {
        return InboxRetention.rule();
    }

    @Bean
    @ConditionalOnProperty(prefix = "outbox", name = "enabled", matchIfMissing = true)
    RetentionRule outboxRetention() {
        return OutboxRetention.rule();
    }
}
