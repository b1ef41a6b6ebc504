package dev.payments.drills.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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

/**
 * Writes {@code <dir>/<scenario>-<time>.json} (everything, through Jackson) and {@code .html}, and for several runs
 * {@code -compared.txt}: the side-by-side table the terminal shows.
 */
public final class Reports {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .enable(SerializationFeature.INDENT_OUTPUT).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private Reports() {
    }

    public static Path write(DrillResult result, Path dir) {
        return write(result, dir, "");
    }

    /** @param suffix told apart from the other runs of the same command ({@code -production-jvm}) */
    public static Path write(DrillResult result, Path dir, String suffix) {
        Path base = dir.resolve(result.run().scenario() + "-" + stamp() + suffix);
        try {
            Files.createDirectories(dir);
            JSON.writeValue(base.resolveSibling(base.getFileName() + ".json").toFile(), result);
            return Files.writeString(base.resolveSibling(base.getFileName() + ".html"), HtmlReport.render(result));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code <dir>/<scenario>-<time>-compared.txt} beside the runs' own reports. */
    public static Path writeComparison(List<DrillRunner.Labelled> runs, Path dir) {
        try {
            return Files.writeString(dir.resolve(runs.get(0).result().run().scenario() + "-" + stamp()
                    + "-compared.txt"), Comparison.render(runs));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String pretty(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String stamp() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
    }
}
