package dev.payments.drills.report;

import dev.payments.drills.analysis.DrillResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Writes {@code <dir>/<scenario>-<time>.json} and {@code .html}. */
public final class Reports {

    private Reports() {
    }

    public static Path write(DrillResult result, Path dir) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
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
}
