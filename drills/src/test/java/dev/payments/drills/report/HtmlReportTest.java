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
