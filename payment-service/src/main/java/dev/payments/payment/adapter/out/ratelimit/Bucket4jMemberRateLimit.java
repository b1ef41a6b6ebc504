package dev.payments.payment.adapter.out.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.payments.payment.application.MemberRateLimit;
import dev.payments.payment.domain.MemberId;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;

import java.time.Duration;
import java.util.Optional;

/**
 * One token bucket per member, per replica: with N replicas behind a round-robin balancer a member gets up to N times
 * the limit (docs/decisions/rate-limit.md). Idle members' buckets expire so memory stays bounded.
 */
public class Bucket4jMemberRateLimit implements MemberRateLimit {

    private final Cache<String, Bucket> buckets;
    private final int perMinute;

    public Bucket4jMemberRateLimit(int perMinute) {
        this.perMinute = perMinute;
        this.buckets = Caffeine.newBuilder().expireAfterAccess(Duration.ofMinutes(5)).maximumSize(1_000_000).build();
    }

    @Override
    public Optional<Duration> tryAcquire(MemberId member) {
        Bucket bucket = buckets.get(member.value(), key -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }
}
