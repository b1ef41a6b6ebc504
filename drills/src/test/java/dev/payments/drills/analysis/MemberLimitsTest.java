package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MemberLimitsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void tenAMinuteFromTheFirstRequestHoldsAndTheRefillsAreCounted() {
        List<Attempt> attempts = new ArrayList<>();
        // The first at once, nine late in the first minute, one refused between; ten more as the minute turns.
        attempts.add(answer("m1", 0, 200));
        for (int i = 0; i < 9; i++) {
            attempts.add(answer("m1", (51 + i) * SECOND, 200));
        }
        attempts.add(answer("m1", 30 * SECOND, 429));
        for (int i = 0; i < 10; i++) {
            attempts.add(answer("m1", (60 + i) * SECOND, 200));
        }

        MemberLimits limits = MemberLimits.of(attempts, 10);

        assertThat(limits.holds()).isTrue();
        assertThat(limits.accepted()).isEqualTo(20);
        assertThat(limits.limited()).isEqualTo(1);
        assertThat(limits.limitedMembers()).isEqualTo(1);
        // Within the limit and still 19 in one sliding minute (51 s - 110 s): up to twice the limit is what a full
        // bucket and its refill allow, so the drill checks the limit per minute since the first request, not this.
        assertThat(limits.maxInAnyMinute()).as("a bucket spent late, then its refill").isEqualTo(19);
    }

    @Test
    void twoReplicasWithABucketEachAreCaughtLettingTwentyThroughInTheFirstMinute() {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            attempts.add(answer("m1", i * SECOND, 200));
        }
        attempts.add(answer("m2", 0, 200));

        MemberLimits limits = MemberLimits.of(attempts, 10);

        assertThat(limits.holds()).isFalse();
        assertThat(limits.violations()).containsOnlyKeys("m1");
        assertThat(limits.violations().get("m1")).contains("accepted answer 11");
    }

    @Test
    void everyRetriedNotFoundSpentATokenAndAnUnansweredAttemptIsLeftOut() {
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            attempts.add(answer("m1", i * SECOND, 200));
        }
        attempts.add(new Attempt(new PreparedOrder(99, "o-99", "m1", 1000), "load", 10 * SECOND, 11 * SECOND, 200,
                "approved", null, 1));
        attempts.add(answer("m1", 12 * SECOND, 0));

        MemberLimits limits = MemberLimits.of(attempts, 10);

        assertThat(limits.accepted()).isEqualTo(11);
        assertThat(limits.holds()).isFalse();
    }

    @Test
    void aRefusalAtAdmissionTookNoTokenAndIsLeftOut() {
        // The breaker open for a while: the member's 503s come before the bucket (ConfirmPayment), then ten approvals.
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            attempts.add(answer("m1", i * SECOND, 503));
        }
        for (int i = 0; i < 10; i++) {
            attempts.add(answer("m1", (20 + i) * SECOND, 200));
        }

        MemberLimits limits = MemberLimits.of(attempts, 10);

        assertThat(limits.accepted()).isEqualTo(10);
        assertThat(limits.holds()).isTrue();
    }

    private static Attempt answer(String member, long at, int status) {
        return new Attempt(new PreparedOrder(0, "o-" + at, member, 1000), "load", at, at + SECOND / 10, status,
                status == 429 ? "rate_limited" : "approved", null, 0);
    }
}
