package dev.payments.drills.analysis;

import dev.payments.drills.observe.Sample;

import java.util.List;

/**
 * {@code PaymentApprovalFailureRateHigh} of {@code deploy/prometheus/rules/approval.yml} (seed 000) replayed on the
 * drill's one-second scrapes of {@code payment_approval_total}: when the condition was first true after the fault, and
 * when it had been true for the rule's whole {@code for}. Prometheus scrapes every 10-15 s, so a real alert sees the
 * same condition up to one scrape interval later.
 */
public final class ApprovalAlertReplay {

    /** The outcome labels the rule counts as failures; everything else that is not an answer is left out. */
    public static final List<String> FAILURES = List.of("pg_failed", "pg_timeout", "unknown", "pg_unavailable",
            "db_failed", "pg_auth_failed");
    /** Answers that are not failures but count in the denominator. */
    public static final List<String> ANSWERS = List.of("approved", "declined", "pg_mismatch");
    static final double WINDOW_SECONDS = 300;
    static final double RATIO = 0.20;
    static final double MIN_FAILURES = 5;
    static final double FOR_SECONDS = 60;

    public static final String DESCRIPTION = "failures / (approved + declined + pg_mismatch + failures) over the last "
            + "5 min > 20 % and failures >= 5 (failures = pg_failed + pg_timeout + unknown + pg_unavailable + db_failed "
            + "+ pg_auth_failed), "
            + "from payment_approval_total scraped every second; firing = true for 1 min";

    /**
     * @param trueAt   drill time the condition was first true at or after the fault; null if never
     * @param firingAt drill time it had been true for {@code for: 1m}; null if never (or the drill was shorter)
     */
    public record Evaluation(Double trueAt, Double firingAt) {
    }

    private ApprovalAlertReplay() {
    }

    /**
     * Evaluates the rule at every scrape that answered, as Prometheus would at every evaluation: the for-clock starts
     * when the condition becomes true, even before the fault; detection counts only from the fault on.
     */
    public static Evaluation replay(List<Sample> samples, double faultAt) {
        Double trueAt = null;
        Double firingAt = null;
        Double trueSince = null;
        List<Sample> up = samples.stream().filter(s -> s.up() && !s.approvals().isEmpty()).toList();
        int windowStart = 0;
        for (int i = 0; i < up.size(); i++) {
            Sample now = up.get(i);
            while (now.t() - up.get(windowStart).t() > WINDOW_SECONDS) {
                windowStart++;
            }
            List<Sample> window = up.subList(windowStart, i + 1);
            double failures = increase(window, FAILURES);
            double total = failures + increase(window, ANSWERS);
            boolean condition = failures >= MIN_FAILURES && total > 0 && failures / total > RATIO;
            if (!condition) {
                trueSince = null;
                continue;
            }
            if (trueSince == null) {
                trueSince = now.t();
            }
            if (now.t() >= faultAt) {
                if (trueAt == null) {
                    trueAt = now.t();
                }
                if (firingAt == null && now.t() - trueSince >= FOR_SECONDS) {
                    firingAt = now.t();
                }
            }
        }
        return new Evaluation(trueAt, firingAt);
    }

    /**
     * {@code sum(increase(...))} over the window for these outcome series, without Prometheus' extrapolation to the
     * window's edges: a drop is a counter reset (a restarted payment-service), after which the new value is the
     * increase; a series counts only between two samples that both have it, so a label that first appears with a
     * value contributes nothing for that value (why the service registers every label at 0 at start-up).
     */
    static double increase(List<Sample> window, List<String> outcomes) {
        double total = 0;
        for (String outcome : outcomes) {
            Double previous = null;
            for (Sample s : window) {
                Double value = s.approvals().get(outcome);
                if (value != null && previous != null) {
                    total += value >= previous ? value - previous : value;
                }
                previous = value;
            }
        }
        return total;
    }
}
