package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Locale;

/** What a fault is scoped to. The transaction listing counts as a query. */
public enum Operation {
    CONFIRM,
    QUERY,
    CANCEL,
    /** Every operation that has no fault of its own. */
    ALL;

    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Operation fromWire(String value) {
        return Arrays.stream(values())
                .filter(o -> o.name().equalsIgnoreCase(value))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "operation must be one of confirm, query, cancel, all; got '" + value + "'"));
    }
}
