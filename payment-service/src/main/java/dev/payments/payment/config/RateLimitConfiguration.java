package dev.payments.payment.config;

import dev.payments.payment.adapter.in.schedule.RateLimitCleanup;
import dev.payments.payment.adapter.out.ratelimit.PostgresMemberRateLimit;
import dev.payments.payment.application.RateLimitBuckets;
import dev.payments.support.schedule.ClusterJobs;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import javax.sql.DataSource;
import java.time.Duration;

/** The per-member limit, shared by every replica through the database, and the job that keeps its table small. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RateLimitProperties.class)
class RateLimitConfiguration {

    /** A replica that died mid-cleanup keeps the others out this long at most. */
    private static final Duration CLEANUP_AT_MOST = Duration.ofMinutes(5);

    @Bean
    PostgresMemberRateLimit memberRateLimit(DataSource dataSource, ApprovalProperties approval) {
        return new PostgresMemberRateLimit(dataSource, approval.perMemberPerMinute());
    }

    @Bean
    RateLimitCleanup rateLimitCleanup(RateLimitBuckets buckets, ClusterJobs jobs, RateLimitProperties properties) {
        return new RateLimitCleanup(buckets,
                jobs.job("payment.rate-limit-cleanup", properties.cleanupEvery(), CLEANUP_AT_MOST),
                properties.cleanupBatch());
    }
}
