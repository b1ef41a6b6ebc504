package dev.payments.drills.scenario;

import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline;

import java.util.List;
import java.util.Map;

/** Everything one drill measured; written as JSON and drawn as HTML. Times are seconds since the drill started. */
public record DrillResult(String scenario, String fieldReport, String description, String command, String startedAt,
                          Machine machine, String target, Map<String, Object> parameters,
                          Map<String, List<String>> settings, double durationSeconds, int ordersSent,
                          int notSent, Map<String, Long> outcomes, Latency latency, List<Phase> phases,
                          Audit audit, Pool pool, List<MetricsSampler.Transition> breakerTransitions, Detect detect,
                          Recover recover, List<Timeline.Mark> marks, List<Second> seconds, List<Sample> samples,
                          List<Check> checks, List<Scenario.Target> targets, Map<String, Object> extra,
                          List<String> notes) {

    public record Machine(int cpus, String java, String os, String host) {
    }

    /** Milliseconds; null when nothing finished. */
    public record Latency(long count, Double p50, Double p95, Double p99, Double max, Double mean) {
    }

    public record Phase(String name, double start, double end, long count, Map<String, Long> outcomes,
                        Latency latency, double throughputPerSecond, long approvedPerSecondTimes100,
                        int notFoundRetries) {
    }

    /** The drill's own audit, with reconciliation's beside it. */
    public record Audit(Books.Audit books, Boolean reconciliationHolds, String reconciliationIdentity) {
    }

    public record Pool(Double pendingMax, Double activeMax, Double timeouts, Double threadsMax, Double cpuMax) {
    }

    /**
     * @param faultAt              the first "fault injected" mark, null if the scenario injects none
     * @param firstFailureAfter    first answered failure (not approved, not declined) after the fault
     * @param breakerOpenAfter     first OPEN after the fault (50 ms polling)
     * @param firstRefusalAfter    first 503 PG_UNAVAILABLE a client received after the fault
     * @param alertPendingAfter    000's rule "failure rate over 5 min > 20 % and >= 5 failures" first true (1 s scrapes)
     * @param alertFiringAfter     the same rule true for a whole minute (000's "for: 1m"); null if the drill was shorter
     */
    public record Detect(Double faultAt, Double firstFailureAfter, Double breakerOpenAfter, Double firstRefusalAfter,
                         Double alertPendingAfter, Double alertFiringAfter, String rule) {
    }

    /**
     * @param recoveredAt              the "recovered" mark (PG healthy, broker or database back, service restarted)
     * @param unsettledAtRecovery      our payments UNKNOWN or REQUESTED (or orders PAYMENT_PENDING) at that moment
     * @param allSettledAfter          seconds after recovery until none was left; null if not within the deadline
     * @param consumersCaughtUpAfter   seconds after recovery until every service's consumer group had lag 0
     */
    public record Recover(Double recoveredAt, Integer unsettledAtRecovery, Double allSettledAfter,
                          Double consumersCaughtUpAfter, double settleDeadlineSeconds) {
    }

    /** One second of the drill, by the time answers arrived. */
    public record Second(int t, Map<String, Long> outcomes, Double p50, Double p99, Double max) {
    }

    public record Check(String name, boolean passed, String detail) {
    }

    public boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }
}
