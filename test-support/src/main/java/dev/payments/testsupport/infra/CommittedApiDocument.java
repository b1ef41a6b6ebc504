package dev.payments.testsupport.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.payments.localstack.RepositoryRoot;
import dev.payments.localstack.http.Http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI document a running service serves, against the one committed in {@code docs/api/<service>.json}: API
 * drift breaks the build, as the golden events do for the wire. After an intended change, run the service's test with
 * {@code -Dapi.docs.update=true} to write the served document, and commit it with the change. Every problem code the
 * document names must have its section in docs/problems.md, where the problems' types point.
 */
public final class CommittedApiDocument {

    public static final String UPDATE_PROPERTY = "api.docs.update";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"/problems#([a-z0-9_]+)\"");

    private CommittedApiDocument() {
    }

    /**
     * Fetches the document from the service on {@code port} (its first request builds it: slow on a loaded machine,
     * hence the long timeout) and compares it.
     */
    public static void assertServedIsCommitted(String service, int port) {
        Http.Response response = new Http().get("http://127.0.0.1:" + port + "/v3/api-docs", Duration.ofMinutes(2));
        if (response.status() != 200) {
            throw new AssertionError(service + " answered " + (response.status() == 0 ? response.error()
                    : response.status() + ": " + response.body()) + " for /v3/api-docs");
        }
        assertServedIsCommitted(service, response.body());
    }

    /**
     * Writes the served document first when {@code -Dapi.docs.update=true}.
     *
     * @throws AssertionError naming what differs, when the served document is not the committed one
     */
    public static void assertServedIsCommitted(String service, String served) {
        Path root = RepositoryRoot.find(Path.of(""));
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            try {
                Path committed = root.resolve("docs/api/" + service + ".json");
                Files.createDirectories(committed.getParent());
                Files.writeString(committed, canonical(served), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        check(root, service, served);
    }

    /** The comparison alone: never writes, whatever the update property says. */
    static void check(Path root, String service, String served) {
        Path committed = root.resolve("docs/api/" + service + ".json");
        try {
            if (!Files.isRegularFile(committed)) {
                throw new AssertionError("No committed API document " + committed + ": run with -D" + UPDATE_PROPERTY
                        + "=true and commit it");
            }
            JsonNode expected = JSON.readTree(Files.readString(committed, StandardCharsets.UTF_8));
            JsonNode actual = JSON.readTree(canonical(served));
            List<String> differences = new ArrayList<>();
            diff("", expected, actual, differences);
            if (!differences.isEmpty()) {
                throw new AssertionError(service + " serves an OpenAPI document that differs from " + committed
                        + " (" + differences.size() + " differences; if intended, run with -D" + UPDATE_PROPERTY
                        + "=true and commit the file):\n  " + String.join("\n  ", differences.subList(0,
                        Math.min(20, differences.size()))));
            }
            List<String> undocumented = undocumentedProblems(served,
                    Files.readString(root.resolve("docs/problems.md"), StandardCharsets.UTF_8));
            if (!undocumented.isEmpty()) {
                throw new AssertionError(service + " answers problem codes docs/problems.md does not describe: "
                        + undocumented);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The codes whose type a document names but whose heading ({@code ### CODE}) the page lacks. */
    static List<String> undocumentedProblems(String document, String page) {
        TreeSet<String> missing = new TreeSet<>();
        Matcher types = PROBLEM_TYPE.matcher(document);
        while (types.find()) {
            String code = types.group(1).toUpperCase(Locale.ROOT);
            if (!Pattern.compile("(?m)^#+ `?" + Pattern.quote(code) + "`?\\s*$").matcher(page).find()) {
                missing.add(code);
            }
        }
        return List.copyOf(missing);
    }

    static String canonical(String json) {
        try {
            Object tree = JSON.readValue(json, Object.class);
            return JSON.writeValueAsString(tree) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("The served API document is not JSON", e);
        }
    }

    private static void diff(String path, JsonNode expected, JsonNode actual, List<String> differences) {
        if (expected.isObject() && actual.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            expected.fieldNames().forEachRemaining(names::add);
            actual.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                String child = path + "/" + name.replace("~", "~0").replace("/", "~1");
                if (!actual.has(name)) {
                    differences.add("removed " + child);
                } else if (!expected.has(name)) {
                    differences.add("added " + child);
                } else {
                    diff(child, expected.get(name), actual.get(name), differences);
                }
            }
        } else if (!expected.equals(actual)) {
            differences.add("changed " + (path.isEmpty() ? "/" : path) + ": " + abbreviate(expected) + " -> "
                    + abbreviate(actual));
        }
    }

    private static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }
}
