package dev.payments.payment.adapter.out.ratelimit;

import dev.payments.payment.application.MemberRateLimit;
import dev.payments.payment.application.RateLimitBuckets;
import dev.payments.payment.domain.MemberId;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.BucketExceptions;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * One token bucket per member in the service's own database, so the limit is the same whichever replica answers and
 * however many there are (docs/decisions/rate-limit.md). A check runs in the caller's transaction (TX-1: insert if
 * new, {@code SELECT ... FOR UPDATE}, update), so it costs no connection, commit or WAL flush of its own and the
 * token is taken only if TX-1 commits. Bucket4j's select-for-update flavour, because its advisory-lock flavour needs
 * numeric keys and member ids are strings; the cleanup runs on the pool in transactions of its own.
 */
public class PostgresMemberRateLimit implements MemberRateLimit, RateLimitBuckets {

    /** A bucket is kept this long after it is full again, so a member's next request rarely recreates it. */
    private static final Duration KEEP_AFTER_FULL = Duration.ofSeconds(10);

    private static final SQLExceptionTranslator SQL_EXCEPTIONS = new SQLExceptionSubclassTranslator();

    /** Checks, in the caller's transaction. */
    private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;
    /** The cleanup, in transactions of its own. */
    private final PostgreSQLSelectForUpdateBasedProxyManager<String> cleanup;
    private final BucketConfiguration perMember;

    public PostgresMemberRateLimit(DataSource dataSource, int perMinute) {
        this.buckets = proxyManager(new CallersTransaction(dataSource));
        this.cleanup = proxyManager(dataSource);
        this.perMember = BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build())
                .build();
    }

    private static PostgreSQLSelectForUpdateBasedProxyManager<String> proxyManager(DataSource dataSource) {
        return Bucket4jPostgreSQL.selectForUpdateBasedBuilder(dataSource)
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("member_rate_buckets")
                .idColumn("member_id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_FULL))
                .build();
    }

    @Override
    public Optional<Duration> tryAcquire(MemberId member) {
        ConsumptionProbe probe;
        try {
            probe = buckets.builder().build(member.value(), () -> perMember).tryConsumeAndReturnRemaining(1);
        } catch (BucketExceptions.BucketExecutionException e) {
            throw translated(e);
        }
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    /**
     * Bucket4j wraps the driver's {@link SQLException} in its own unchecked exception; the use case knows Spring's
     * {@link DataAccessException}s (a database that is down is a 503 {@code DB_UNAVAILABLE}, not a 500), so this
     * adapter speaks them, as a JdbcTemplate would.
     */
    private static RuntimeException translated(BucketExceptions.BucketExecutionException e) {
        if (!(e.getCause() instanceof SQLException sql)) {
            return e;
        }
        DataAccessException translated = SQL_EXCEPTIONS.translate("member rate bucket", null, sql);
        return translated != null ? translated : new UncategorizedSQLException("member rate bucket", null, sql);
    }

    @Override
    public int forgetRested(int atMost) {
        return cleanup.removeExpired(atMost);
    }
}
