package dev.payments.drills.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.testing.DrillTestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportsTest {

    @TempDir
    Path dir;

    @Test
    void writesTheJsonAsOneFlatObjectBesideTheHtml() throws IOException {
        Path html = Reports.write(DrillTestData.pgSlowResult(), dir);

        Path json = html.resolveSibling(html.getFileName().toString().replace(".html", ".json"));
        assertThat(html.getFileName().toString()).startsWith("pg-slow-").endsWith(".html");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        List<String> keys = new ArrayList<>();
        root.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("scenario", "fieldReport", "description", "command", "startedAt", "machine",
                "target", "parameters", "settings", "durationSeconds", "ordersSent", "notSent", "outcomes", "latency",
                "phases", "audit", "pool", "breakerTransitions", "detect", "recover", "marks", "seconds", "samples",
                "costs", "resources", "checks", "targets", "extra", "notes");
        assertThat(root.path("audit").path("books").path("identity").asText()).startsWith("29 PG approvals = 29 PAID");
        assertThat(root.path("phases").path(1).path("name").asText()).isEqualTo("burst-20");
        assertThat(Files.readString(html)).isEqualTo(HtmlReport.render(DrillTestData.pgSlowResult()));
    }

    @Test
    void theSummaryTableSaysWhatTheReportsCounted() {
        DrillResult result = DrillTestData.pgSlowResult();

        String table = SummaryTable.render(result);

        assertThat(table).contains("== pg-slow (field report 000) ==");
        assertThat(table).containsPattern("approvals sent +30");
        assertThat(table).containsPattern("outcomes \\(client\\) +approved 29  pending 1");
        assertThat(table).containsPattern("survivors \\(PG-approved and PAID\\) +29 of 30");
        assertThat(table).containsPattern("phase burst-20 +20 sent");
        assertThat(table).containsPattern("target: approved, no compensation +29 of 30, 0 cancels \\(goal 30 of 30, 0 cancels\\) NOT MET");
        assertThat(table).contains("RESULT: PASS");
    }
}
