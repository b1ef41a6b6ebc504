package dev.payments.drills.report;

import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.scenario.DrillRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Writes {@code <dir>/<scenario>-<time>.json} and {@code .html}. */
public final class Reports {

    private Reports() {
    }

    public static Path write(DrillResult result, Path dir) {
        return write(result, dir, "");
    }

    /** @param suffix told apart from the other runs of the same command ({@code -production-jvm}) */
    public static Path write(DrillResult result, Path dir, String suffix) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now())
                + suffix;
        Path json = dir.resolve(result.run().scenario() + "-" + stamp + ".json");
        Path html = dir.resolve(result.run().scenario() + "-" + stamp + ".html");
        Json.write(json, result);
        try {
            Files.writeString(html, HtmlReport.render(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return html;
    }

    /** {@code <dir>/<scenario>-<time>-compared.html} beside the runs' own reports. */
    public static Path writeComparison(List<DrillRunner.Labelled> runs, List<Path> reports, Path dir) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path html = dir.resolve(runs.get(0).result().run().scenario() + "-" + stamp + "-compared.html");
        try {
            Files.writeString(html, Comparison.html(runs, reports.stream().map(p -> p.getFileName().toString()).toList()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return html;
    }
}
