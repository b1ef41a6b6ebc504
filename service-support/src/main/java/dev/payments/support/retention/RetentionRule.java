package dev.payments.support.retention;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which rows of one table may go, and when: a row goes once its {@code ageColumn} is older than the rule's keep
 * ({@code retention.keep.<name>}, else {@code defaultKeep}) and it also meets {@code removableWhen}, a fixed SQL
 * condition of the service's own code (never a setting or a caller's value). docs/operations.md, "Retention", has every
 * rule and why its default is safe for money.
 *
 * @param name          the rule's name: its property key and the metric's {@code rule} tag
 * @param table         the table, in the service's own database
 * @param ageColumn     a {@code timestamptz} column that says how old a row is; an index on it keeps each batch cheap
 * @param removableWhen what a row must also be to go ({@code "TRUE"} for age alone), e.g. "delivered or given up"
 * @param defaultKeep   how long a row is kept when no property says otherwise
 */
public record RetentionRule(String name, String table, String ageColumn, String removableWhen, Duration defaultKeep) {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

    public RetentionRule {
        Objects.requireNonNull(removableWhen, "removableWhen");
        if (!NAME.matcher(Objects.requireNonNull(name, "name")).matches()) {
            throw new IllegalArgumentException("retention rule name '" + name + "' is not a property key");
        }
        // Table and column are written into the statement: only plain lower-case identifiers are accepted.
        for (String identifier : new String[]{table, ageColumn}) {
            if (identifier == null || !IDENTIFIER.matcher(identifier).matches()) {
                throw new IllegalArgumentException("retention rule " + name + ": '" + identifier
                        + "' is not a plain identifier");
            }
        }
        if (defaultKeep == null || defaultKeep.isNegative() || defaultKeep.isZero()) {
            throw new IllegalArgumentException("retention rule " + name + " keeps rows for " + defaultKeep);
        }
    }

    /** A rule on age alone. */
    public static RetentionRule olderThan(String name, String table, String ageColumn, Duration defaultKeep) {
        return new RetentionRule(name, table, ageColumn, "TRUE", defaultKeep);
    }
}
