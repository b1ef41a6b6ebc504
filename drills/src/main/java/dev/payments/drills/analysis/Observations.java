package dev.payments.drills.analysis;

import dev.payments.drills.load.Attempt;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.ResourceSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one drill saw, raw, once the load has ended and the books are read: the input of {@link DrillAnalysis}.
 *
 * @param clock           the drill's time origin (attempts carry {@link System#nanoTime()} values)
 * @param durationSeconds drill time when the audit was done
 * @param notSent         open-loop arrivals the client skipped because it had too many requests outstanding
 * @param settleDeadline  how long after the recovery payments were given to settle
 * @param deadLetters     records that arrived on each dead-letter topic during the drill (only topics that got
 *                        some); null when Kafka could not be asked
 * @param resources       CPU of every process and PostgreSQL's counters, sampled every second
 */
public record Observations(Clock clock, double durationSeconds, List<Attempt> attempts, int notSent,
                           List<Sample> samples, List<MetricsSampler.Transition> transitions,
                           List<Timeline.Mark> marks, LedgerAudit audit, Recovery recovery, Duration settleDeadline,
                           Map<String, Long> deadLetters, List<ResourceSampler.Counters> resources) {

    /**
     * What the recovery watch saw from the first "recovered" mark on (drill times; null: not observed).
     *
     * @param unsettledAtStart payments still unsettled at the first poll after the recovery
     * @param allSettledAt     when none was left unsettled
     * @param caughtUpAt       when every consumer group had lag 0 and every APPROVED payment's order was PAID
     */
    public record Recovery(Integer unsettledAtStart, Double allSettledAt, Double caughtUpAt) {

        public static final Recovery NOT_WATCHED = new Recovery(null, null, null);
    }
}
