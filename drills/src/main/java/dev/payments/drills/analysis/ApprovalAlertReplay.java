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
            "db_failed");
    /** Answers that are not failures but count in the denominator. */
    public static final List<String> ANSWERS = List.of("approved", "declined");
    static final double WINDOW_SECONDS = 300;
    static final double RATIO = 0.20;
    static final double MIN_FAILURES = 5;
    static final double FOR_SECONDS = 60;

    public static final String DESCRIPTION = "failures / (approved + declined + failures) over the last 5 min > 20 % "
            + "and failures >= 5 (failures = pg_failed + pg_timeout + unknown + pg_unavailable + db_failed), "
            + "from payment_approval_total scraped every second; firing = true for 1 min";

    /**
     * @param trueAt   drill time the condition was first true at or after the fault; null if never
     * @param firingAt drill time it had been true for {@code for: 1m}; null if never (or the drill was shorter)
     */
    public record Evaluation(Double trueAt, Double firingAt) {
    }

    private ApprovalAlertReplay() {
    }

    /** Evaluates the rule at every scrape that answered, as Prometheus would at every evaluation. */
    public static Evaluation replay(List<Sample> samples, double faultAt) {
        Double pending = null;
        Double firing = null;
        Double trueSince = null;
        List<Sample> up = samples.stream().filter(s -> s.up() && !s.approvals().isEmpty()).toList();
        for (int i = 0; i < up.size(); i++) {
            Sample now = up.get(i);
            Sample then = up.get(0);
            for (int j = i; j >= 0; j--) {
                if (now.t() - up.get(j).t() > WINDOW_SECONDS) {
                    break;
                }
                then = up.get(j);
            }
            double failures = delta(now, then, FAILURES);
            double total = failures + delta(now, then, ANSWERS);
            boolean condition = failures >= MIN_FAILURES && total > 0 && failures / total > RATIO;
            if (condition && now.t() >= faultAt) {
                if (trueSince == null) {
                    trueSince = now.t();
                }
                if (pending == null) {
                    pending = now.t();
                }
                if (firing == null && now.t() - trueSince >= FOR_SECONDS) {
                    firing = now.t();
                }
            } else {
                trueSince = null;
            }
        }
        return new Evaluation(pending, firing);
    }

    private static double delta(Sample now, Sample then, List<String> outcomes) {
        double d = 0;
        for (String o : outcomes) {
            d += now.approvals().getOrDefault(o, 0.0) - then.approvals().getOrDefault(o, 0.0);
        }
        return Math.max(0, d);   // a restart resets counters
    }
}
