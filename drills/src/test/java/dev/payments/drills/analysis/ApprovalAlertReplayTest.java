package dev.payments.drills.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.payments.localstack.RepositoryRoot;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java replay against the rule it replays: the same outcomes and thresholds as
 * {@code deploy/prometheus/rules/approval.yml}, and promtool's cases of {@code deploy/prometheus/tests/approval.test.yml}
 * fed through it with the same 15 s scrapes and the same expected alert.
 */
class ApprovalAlertReplayTest {

    private static final double M = 60;

    @Test
    void countsTheOutcomesAndUsesTheThresholdsOfTheDeployedRule() throws IOException {
        JsonNode rule = deployedRule();
        String expr = rule.path("expr").asText();
        List<Set<String>> selectors = outcomeSelectors(expr);

        assertThat(selectors).hasSize(3);
        assertThat(selectors.get(0)).as("failures").containsExactlyInAnyOrderElementsOf(ApprovalAlertReplay.FAILURES);
        Set<String> attempts = new LinkedHashSet<>(ApprovalAlertReplay.FAILURES);
        attempts.addAll(ApprovalAlertReplay.ANSWERS);
        assertThat(selectors.get(1)).as("attempts").containsExactlyInAnyOrderElementsOf(attempts);
        assertThat(selectors.get(2)).as("the >= 5 floor counts failures").isEqualTo(selectors.get(0));
        assertThat(expr).contains("[5m]").contains("> " + ApprovalAlertReplay.RATIO)
                .contains(">= " + (long) ApprovalAlertReplay.MIN_FAILURES);
        assertThat(ApprovalAlertReplay.WINDOW_SECONDS).isEqualTo(5 * M);
        assertThat(rule.path("for").asText()).isEqualTo("1m");
        assertThat(ApprovalAlertReplay.FOR_SECONDS).isEqualTo(M);
    }

    /** promtool case 1: pending at the first scrape that shows the 50 refusals, firing one minute later. */
    @Test
    void preRegisteredRefusalsAreTrueAtTheFirstScrapeAndFireAMinuteLater() {
        var samples = Scrapes.every(15, 81)
                .series("approved", i -> 2.0 * i)
                .series("pg_unavailable", i -> i < 40 ? 0.0 : 50.0)
                .series("declined", i -> 0.0)
                .series("pg_timeout", i -> 0.0)
                .series("replayed", i -> 1.0 * i)
                .series("rate_limited", i -> 5.0 * i)
                .samples();

        var alert = ApprovalAlertReplay.replay(samples, 9 * M + 50);

        assertThat(alert.trueAt()).isEqualTo(10 * M);
        assertThat(alert.firingAt()).isEqualTo(11 * M);
    }

    /** promtool case 2: a label that first appears at the fault has no earlier sample, so increase() sees nothing. */
    @Test
    void aLabelThatFirstAppearsAtTheFaultIsNotCounted() {
        var samples = Scrapes.every(15, 81)
                .series("approved", i -> 2.0 * i)
                .series("pg_unavailable", i -> i < 40 ? null : 50.0)
                .samples();

        var alert = ApprovalAlertReplay.replay(samples, 9 * M + 50);

        assertThat(alert.trueAt()).isNull();
        assertThat(alert.firingAt()).isNull();
    }

    /** promtool case 3: eight failures among heavy declines stay under 20 %; declines are answers, not failures. */
    @Test
    void declinesAreNotFailures() {
        var samples = Scrapes.every(15, 41)
                .series("approved", i -> 4.0 * i)
                .series("declined", i -> 10.0 * i)
                .series("pg_timeout", i -> i <= 20 ? 0.0 : 2.0)
                .series("unknown", i -> i <= 20 ? 0.0 : 2.0)
                .series("db_failed", i -> i <= 20 ? 0.0 : 2.0)
                .series("pg_failed", i -> i <= 20 ? 0.0 : 2.0)
                .samples();

        assertThat(ApprovalAlertReplay.replay(samples, 0).trueAt()).isNull();
    }

    /** promtool case 4: four failures of four attempts is 100 % but under the floor of five. */
    @Test
    void fewerThanFiveFailuresNeverAlert() {
        var samples = Scrapes.every(15, 41)
                .series("approved", i -> 0.0)
                .series("pg_timeout", i -> i <= 20 ? 0.0 : 4.0)
                .samples();

        assertThat(ApprovalAlertReplay.replay(samples, 0).trueAt()).isNull();
    }

    @Test
    void aConditionThatLapsesWithinTheMinuteNeverFires() {
        // 1 s scrapes: 10 refusals at 30 s, then approvals dilute them under 20 % by 60 s.
        var samples = Scrapes.every(1, 200)
                .series("approved", i -> i < 45 ? 0.0 : 2.0 * (i - 45))
                .series("pg_unavailable", i -> i < 30 ? 0.0 : 10.0)
                .samples();

        var alert = ApprovalAlertReplay.replay(samples, 29.5);

        assertThat(alert.trueAt()).isEqualTo(30);
        assertThat(alert.firingAt()).isNull();
    }

    @Test
    void aConditionAlreadyTrueAtTheFaultFiresWhenPrometheusWould() {
        var samples = Scrapes.every(1, 120)
                .series("approved", i -> 0.0)
                .series("pg_timeout", i -> i < 10 ? 0.0 : 6.0)
                .samples();

        var alert = ApprovalAlertReplay.replay(samples, 50);

        assertThat(alert.trueAt()).as("first true at or after the fault").isEqualTo(50);
        assertThat(alert.firingAt()).as("pending since 10 s, as Prometheus would be: firing 60 s later").isEqualTo(70);
    }

    /**
     * A restart of payment-service starts its counters at 0 again. Prometheus' increase() treats the drop as a counter
     * reset and adds what was counted after it: 3 refusals before the restart and 3 after are 6 failures.
     */
    @Test
    void failuresOnBothSidesOfARestartAddUpLikeIncreaseDoes() {
        var samples = Scrapes.every(1, 120)
                .series("approved", i -> i < 63 ? 10.0 : 0.0)
                .series("pg_unavailable", i -> i < 60 ? 0.0 : i < 63 ? i - 59.0 : i < 73 ? i - 69.0 : 3.0)
                .down(i -> i >= 63 && i < 70)
                .samples();

        var alert = ApprovalAlertReplay.replay(samples, 59.5);

        assertThat(alert.trueAt()).as("3 before + 2 after the restart reach the floor of 5").isEqualTo(71);
    }

    private static JsonNode deployedRule() throws IOException {
        Path file = RepositoryRoot.find(Path.of("")).resolve("deploy/prometheus/rules/approval.yml");
        JsonNode groups = new ObjectMapper(new YAMLFactory()).readTree(file.toFile()).path("groups");
        for (JsonNode group : groups) {
            for (JsonNode rule : group.path("rules")) {
                if ("PaymentApprovalFailureRateHigh".equals(rule.path("alert").asText())) {
                    return rule;
                }
            }
        }
        throw new AssertionError("no PaymentApprovalFailureRateHigh in " + file);
    }

    /** Every {@code outcome=~"a|b|c"} of the expression, in order. */
    private static List<Set<String>> outcomeSelectors(String expr) {
        Matcher m = Pattern.compile("outcome=~\"([^\"]+)\"").matcher(expr);
        List<Set<String>> selectors = new ArrayList<>();
        while (m.find()) {
            selectors.add(new LinkedHashSet<>(Arrays.asList(m.group(1).split("\\|"))));
        }
        return selectors;
    }
}
