package dev.payments.support.web;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** The services' CSV downloads: RFC 4180 lines, CRLF-terminated, UTF-8 by the caller's writer. */
public final class CsvLines {

    private CsvLines() {
    }

    /** One record; null is an empty field. */
    public static String line(List<?> values) {
        return values.stream().map(value -> value == null ? "" : String.valueOf(value)).map(CsvLines::field)
                .collect(Collectors.joining(",")) + "\r\n";
    }

    /**
     * A field with a comma, quote or line break is quoted, its quotes doubled (RFC 4180). A text that a spreadsheet
     * would run as a formula (it starts with {@code = + - @}, a tab or a carriage return, and is not a number) is
     * prefixed with an apostrophe, so a value a customer or a PG chose cannot become a formula in an operator's
     * spreadsheet (OWASP "CSV injection").
     */
    public static String field(String value) {
        String text = Objects.requireNonNull(value);
        if (!text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 && !isNumber(text)) {
            text = "'" + text;
        }
        boolean quote = text.contains(",") || text.contains("\"") || text.contains("\r") || text.contains("\n");
        return quote ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static boolean isNumber(String text) {
        return text.matches("[-+]?\\d+(\\.\\d+)?");
    }
}
