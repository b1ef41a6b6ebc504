package dev.payments.support.retention;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the service's {@link RetentionRule}s: per rule, deletes expired rows in batches of {@code batchSize}, each
 * batch one statement in its own transaction, until a batch comes back short or {@code maxBatches} ran. A batch picks
 * its rows by physical address ({@code ctid}) with {@code FOR UPDATE SKIP LOCKED}, so it never waits for a row another
 * transaction holds and never holds more than {@code batchSize} row locks for the few milliseconds the statement takes.
 * Age is measured on the database's clock, the clock that stamped the rows. Rows removed are counted in
 * {@code retention_rows_removed_total{rule, table}}, every rule registered at 0 at start-up (field report 000).
 */
public final class Retention {

    private static final Logger log = LoggerFactory.getLogger(Retention.class);

    /** One rule with the keep in force and its statement. */
    record Applied(RetentionRule rule, Duration keep, String delete, Counter removed) {
    }

    private final JdbcTemplate jdbc;
    private final List<Applied> rules;
    private final int batchSize;
    private final int maxBatches;

    public Retention(JdbcTemplate jdbc, List<RetentionRule> rules, RetentionProperties properties, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.batchSize = properties.batchSize();
        this.maxBatches = properties.maxBatches();
        Map<String, RetentionRule> byName = new LinkedHashMap<>();
        for (RetentionRule rule : rules) {
            if (byName.put(rule.name(), rule) != null) {
                throw new IllegalStateException("two retention rules are named " + rule.name());
            }
        }
        for (String name : properties.keep().keySet()) {
            if (!byName.containsKey(name)) {
                throw new IllegalStateException("retention.keep." + name + " names no retention rule of this service; "
                        + "its rules are " + byName.keySet());
            }
        }
        this.rules = byName.values().stream().map(rule -> {
            Duration keep = properties.keep().getOrDefault(rule.name(), rule.defaultKeep());
            if (keep.isNegative() || keep.isZero()) {
                throw new IllegalStateException("retention.keep." + rule.name() + " must be positive, was " + keep);
            }
            return new Applied(rule, keep, statement(rule), Counter.builder("retention.rows.removed")
                    .tag("rule", rule.name()).tag("table", rule.table())
                    .description("Rows the retention job deleted because their rule's keep had passed")
                    .register(meters));
        }).toList();
    }

    static String statement(RetentionRule rule) {
        return "DELETE FROM " + rule.table() + " WHERE ctid = ANY(ARRAY("
                + "SELECT ctid FROM " + rule.table()
                + " WHERE " + rule.ageColumn() + " < clock_timestamp() - make_interval(secs => ?)"
                + " AND (" + rule.removableWhen() + ")"
                + " LIMIT ? FOR UPDATE SKIP LOCKED))";
    }

    /** The keep in force per rule name, for the log and the tests. */
    public Map<String, Duration> keeps() {
        Map<String, Duration> keeps = new LinkedHashMap<>();
        rules.forEach(r -> keeps.put(r.rule().name(), r.keep()));
        return keeps;
    }

    /**
     * One cycle over every rule. A rule that fails is logged and the next one still runs: one table's trouble must
     * not let the others grow.
     *
     * @return rows removed per rule name
     */
    public Map<String, Integer> runCycle() {
        Map<String, Integer> removed = new LinkedHashMap<>();
        RuntimeException first = null;
        for (Applied applied : rules) {
            try {
                removed.put(applied.rule().name(), prune(applied));
            } catch (RuntimeException e) {
                log.warn("Retention rule {} on {} failed; the next cycle tries again", applied.rule().name(),
                        applied.rule().table(), e);
                first = first == null ? e : first;
            }
        }
        if (removed.values().stream().anyMatch(n -> n > 0)) {
            log.info("Retention removed {}", removed);
        }
        if (first != null) {
            // Counted as a failed run of the job (scheduled_job_runs_total{outcome="failed"}).
            throw first;
        }
        return removed;
    }

    private int prune(Applied applied) {
        double seconds = applied.keep().toMillis() / 1000.0;
        int total = 0;
        for (int batch = 0; batch < maxBatches; batch++) {
            int deleted = jdbc.update(applied.delete(), seconds, batchSize);
            total += deleted;
            applied.removed().increment(deleted);
            if (deleted < batchSize) {
                break;
            }
        }
        return total;
    }
}
