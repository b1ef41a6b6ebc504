package dev.payments.support.schedule;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterJobTest {

    /** One lock per name, held until released; what the JDBC provider does with its row, without a database. */
    private static final class OneHolder implements LockProvider {
        final List<LockConfiguration> asked = new ArrayList<>();
        boolean held;

        @Override
        public Optional<SimpleLock> lock(LockConfiguration configuration) {
            asked.add(configuration);
            if (held) {
                return Optional.empty();
            }
            held = true;
            return Optional.of(() -> held = false);
        }
    }

    private final OneHolder locks = new OneHolder();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ClusterJobs jobs = new ClusterJobs(new DefaultLockingTaskExecutor(locks), Clock.systemUTC(), meters);

    @Test
    void aJobRunsOnlyWhileItHoldsItsLockAndCountsEveryAttempt() {
        ClusterJob job = jobs.job("settle", Duration.ofSeconds(5), Duration.ofMinutes(1));
        assertThat(runs("ran") + runs("skipped") + runs("failed")).as("registered at 0").isZero();
        int[] work = {0};

        assertThat(job.runOnce(() -> work[0]++)).isTrue();
        locks.held = true;   // another replica has this cycle
        assertThat(job.runOnce(() -> work[0]++)).isFalse();

        assertThat(work[0]).isEqualTo(1);
        assertThat(runs("ran")).isEqualTo(1);
        assertThat(runs("skipped")).isEqualTo(1);
        // The lock is kept for the whole cycle, whatever the run took, and freed after lockAtMostFor at the latest.
        assertThat(locks.asked).allSatisfy(lock -> {
            assertThat(lock.getName()).isEqualTo("settle");
            assertThat(lock.getLockAtLeastFor()).isEqualTo(Duration.ofSeconds(5));
            assertThat(lock.getLockAtMostFor()).isEqualTo(Duration.ofMinutes(1));
        });
    }

    @Test
    void aRunThatThrowsIsCountedAsFailedAndTheExceptionReachesTheSchedule() {
        ClusterJob job = jobs.job("audit", Duration.ofSeconds(5), Duration.ofMinutes(1));

        assertThatThrownBy(() -> job.runOnce(() -> {
            throw new IllegalStateException("PG down");
        })).hasMessage("PG down");

        assertThat(runs("failed", "audit")).isEqualTo(1);
        assertThat(runs("ran", "audit")).isZero();
        assertThat(locks.held).as("released").isFalse();
    }

    @Test
    void aLockThatCouldEndBeforeTheCycleIsRefused() {
        assertThatThrownBy(() -> jobs.job("x", Duration.ofMinutes(2), Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private double runs(String outcome) {
        return runs(outcome, "settle");
    }

    private double runs(String outcome, String job) {
        var counter = meters.find("scheduled.job.runs").tag("job", job).tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }
}
