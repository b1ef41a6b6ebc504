package dev.payments.pgsim.api;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Toss prints Korean time with an offset; millisecond precision keeps the listing's time windows exact. */
final class Timestamps {

    private static final ZoneId KST = ZoneId.of("Asia/Seoul");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    private Timestamps() {
    }

    static String format(Instant instant) {
        return instant == null ? null : FORMAT.format(instant.atZone(KST));
    }

    /** Accepts an instant with Z or any offset ({@code 2025-01-01T00:00:00Z}, {@code ...+09:00}). */
    static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not an ISO-8601 instant with offset: '" + text + "'", e);
        }
    }
}
