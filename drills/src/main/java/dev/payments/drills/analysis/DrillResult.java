package dev.payments.drills.analysis;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.ResourceSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.observe.Timeline;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything one drill measured; written as JSON and drawn as HTML. Times are seconds since the drill started.
 * {@link Run} and {@link Measurements} are unwrapped in the JSON, so the file stays one flat object.
 *
 * @param targets the scenario's goals, measured (not assertions)
 * @param extra   what a scenario recorded beside the common numbers
 */
public record DrillResult(@JsonUnwrapped Run run, @JsonUnwrapped Measurements measured, List<Check> checks,
                          List<Target> targets, Map<String, Object> extra, List<String> notes) {

    /** What ran, on what, with which parameters and service settings. */
    public record Run(String scenario, String fieldReport, String description, String command, String startedAt,
                      Machine machine, String target, Map<String, Object> parameters,
                      Map<String, List<String>> settings) {

        /** For a title: "field report 000", or the capability a drill beyond the reports exercises ("scale-out"). */
        public String reproduces() {
            return fieldReport.matches("\\d{3}") ? "field report " + fieldReport : fieldReport;
        }
    }

    /** The numbers the field reports used, as this drill measured them. */
    public record Measurements(double durationSeconds, int ordersSent, int notSent, Map<String, Long> outcomes,
                               Latency latency, List<Phase> phases, Audit audit, Pool pool,
                               List<MetricsSampler.Transition> breakerTransitions, Detect detect, Recover recover,
                               List<Timeline.Mark> marks, List<Second> seconds, List<Sample> samples,
                               List<Costs.Cost> costs, List<ResourceSampler.Counters> resources) {
    }

    public record Machine(int cpus, String java, String os, String host) {

        public static Machine current() {
            String host;
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (Exception e) {
                host = "?";
            }
            return new Machine(Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                    System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                            + System.getProperty("os.arch"), host);
        }

        /** "1 / 5 / 15 min" load average: other work on a shared machine competes with the stack and the load. */
        public static String loadAverage() {
            try {
                String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
                return f[0] + " / " + f[1] + " / " + f[2];
            } catch (Exception e) {
                return "?";
            }
        }
    }

    /** Milliseconds; null when nothing finished. */
    public record Latency(long count, Double p50, Double p95, Double p99, Double max, Double mean) {
    }

    public record Phase(String name, double start, double end, long count, Map<String, Long> outcomes,
                        Latency latency, double throughputPerSecond, long approvedPerSecondTimes100,
                        int notFoundRetries) {
    }

    /** The drill's own audit, with reconciliation's beside it. */
    public record Audit(LedgerAudit books, Boolean reconciliationHolds, String reconciliationIdentity) {
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

    /**
     * One of the goals for a scenario, measured.
     *
     * @param met null when the drill could not measure it
     */
    public record Target(String name, String goal, String measured, Boolean met) {
    }

    public boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }
}
