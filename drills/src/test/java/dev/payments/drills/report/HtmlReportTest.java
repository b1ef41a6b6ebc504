package dev.payments.drills.report;

import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.testing.DrillTestData;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page a drill leaves behind, rendered from a fixed recording and compared with the snapshot under
 * {@code src/test/resources}. After an intended change of the page, look at {@code target/report-snapshot/} and
 * re-record: {@code ./mvnw -pl drills test -Dtest=HtmlReportTest -Ddrills.snapshot.update=true}.
 */
class HtmlReportTest {

    private static final Path SNAPSHOT = Path.of("src/test/resources/dev/payments/drills/report/pg-slow.html");

    @Test
    void rendersTheSnapshot() throws IOException {
        String html = HtmlReport.render(DrillTestData.pgSlowResult());

        if (Boolean.getBoolean("drills.snapshot.update")) {
            Files.writeString(SNAPSHOT, html, StandardCharsets.UTF_8);
        }
        Path actual = Path.of("target/report-snapshot/pg-slow.html");
        Files.createDirectories(actual.getParent());
        Files.writeString(actual, html, StandardCharsets.UTF_8);
        assertThat(html).as("rendered page (written to %s) against %s", actual, SNAPSHOT)
                .isEqualTo(Files.readString(SNAPSHOT, StandardCharsets.UTF_8));
    }

    @Test
    void isSelfContainedWithOneChartPerSeriesAndTheVerdict() {
        DrillResult result = DrillTestData.pgSlowResult();

        String html = HtmlReport.render(result);

        assertThat(html).doesNotContain("<script", "src=", "<link", "href=");
        assertThat(count(html, "<svg ")).as("latency, answers, pool, breaker, lag").isEqualTo(5);
        assertThat(html).contains("class=\"pass\">PASS");
        assertThat(html).contains(">burst-20</text>").as("marks on the charts");
        assertThat(html).doesNotContain(">placing orders</text>", ">settling</text>").as("bookkeeping marks left out");
    }

    @Test
    void aCapacityRunDrawsApprovalsAndP95AgainstConcurrencyWithLittlesBound() {
        DrillResult slow = DrillTestData.pgSlowResult();
        DrillResult.Measurements m = slow.measured();
        java.util.List<DrillResult.Phase> steps = java.util.List.of(step("warm-up", 40), step("C=50", 150),
                step("C=100", 280), step("C=200", 290));
        DrillResult capacity = new DrillResult(new DrillResult.Run("capacity", "000", "PG at 300 ms", "drills capacity",
                slow.run().startedAt(), slow.run().machine(), slow.run().target(), java.util.Map.of("latency-ms", 300),
                slow.run().settings()),
                new DrillResult.Measurements(m.durationSeconds(), m.ordersSent(), m.notSent(), m.outcomes(),
                        m.latency(), steps, m.audit(), m.pool(), m.breakerTransitions(), m.detect(), m.recover(),
                        m.marks(), m.seconds(), m.samples(), m.costs(), m.resources()),
                slow.checks(), slow.targets(), slow.extra(), slow.notes());

        String html = HtmlReport.render(capacity);
        String chart = html.substring(html.indexOf("<h2>Against concurrency</h2>"), html.indexOf("<h2>Over time</h2>"));

        assertThat(count(chart, "<svg ")).as("approvals/s and p95").isEqualTo(2);
        assertThat(chart).contains("approved/s", "Little's bound", ">200</text>")
                .doesNotContain("warm-up");
        // three steps, each a point on the approvals line and on the bound's line, and on the p95 line
        assertThat(count(chart, "<circle ")).isEqualTo(9);
        assertThat(HtmlReport.render(slow)).doesNotContain("Against concurrency");
    }

    private static DrillResult.Phase step(String name, double approvedPerSecond) {
        return new DrillResult.Phase(name, 0, 10, 100, java.util.Map.of("approved", 100L),
                new DrillResult.Latency(100, 300.0, 450.0, 600.0, 700.0, 320.0), approvedPerSecond,
                Math.round(approvedPerSecond * 100), 0);
    }

    @Test
    void aFailedCheckTurnsTheVerdict() {
        DrillResult passing = DrillTestData.pgSlowResult();
        DrillResult failing = new DrillResult(passing.run(), passing.measured(),
                java.util.List.of(new DrillResult.Check("no approval lost", false, "1 PG approvals ...")),
                passing.targets(), passing.extra(), passing.notes());

        assertThat(HtmlReport.render(failing)).contains("class=\"fail\">FAIL").doesNotContain("class=\"pass\"");
    }

    private static int count(String text, String part) {
        Matcher m = Pattern.compile(Pattern.quote(part)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
