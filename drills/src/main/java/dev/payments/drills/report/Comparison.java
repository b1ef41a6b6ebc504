package dev.payments.drills.report;

import dev.payments.drills.analysis.Costs;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.scenario.DrillRunner.Labelled;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Several runs of one scenario side by side (the same drill on the laptop and the production JVM; our structure and
 * field report 000's broken ones): one column per run, the report's numbers as rows, CPU per approval with its ratio
 * to the first run.
 */
public final class Comparison {

    private Comparison() {
    }

    public static List<String[]> rows(List<Labelled> runs) {
        List<String[]> rows = new ArrayList<>();
        rows.add(row("", runs, Labelled::label));
        rows.add(row("survivors (PG-approved and PAID)", runs, r -> {
            var a = r.result().measured().audit().books();
            return a.paidOrders() + " of " + a.orders();
        }));
        rows.add(row("approved at the PG", runs, r -> String.valueOf(r.result().measured().audit().books().pgApprovals())));
        rows.add(row("compensating cancels", runs, r -> String.valueOf(r.result().measured().audit().books().cancellations())));
        rows.add(row("orders left PAYMENT_PENDING", runs, r -> String.valueOf(r.result().measured().audit().books()
                .orderStatuses().getOrDefault("PAYMENT_PENDING", 0L))));
        rows.add(row("outcomes (client)", runs, r -> SummaryTable.format(r.result().measured().outcomes())));
        rows.add(row("DB pool pending max / timeouts", runs, r -> v(r.result().measured().pool().pendingMax()) + " / "
                + v(r.result().measured().pool().timeouts())));
        rows.add(row("latency p50 / p99", runs, r -> Stats.ms(r.result().measured().latency().p50()) + " / "
                + Stats.ms(r.result().measured().latency().p99())));
        Set<String> phases = new LinkedHashSet<>();
        runs.forEach(r -> r.result().measured().phases().forEach(p -> phases.add(p.name())));
        for (String phase : phases) {
            rows.add(row("  " + phase + ": approved/s, p50 / p99", runs, r -> phase(r, phase).map(p ->
                    String.format(Locale.ROOT, "%.1f/s, %s / %s", p.approvedPerSecondTimes100() / 100.0,
                            Stats.ms(p.latency().p50()), Stats.ms(p.latency().p99()))).orElse("-")));
        }
        Set<String> costed = new LinkedHashSet<>();
        runs.forEach(r -> r.result().measured().costs().forEach(c -> costed.add(c.phase())));
        for (String phase : costed) {
            Optional<Costs.Cost> first = cost(runs.get(0), phase);
            rows.add(row("CPU ms per approval, " + phase, runs, r -> cost(r, phase).map(c -> {
                String text = String.format(Locale.ROOT, "%.2f (without the load generator %.2f)", c.totalMs(),
                        c.systemMs());
                if (r != runs.get(0) && first.isPresent() && first.get().totalMs() > 0) {
                    text += String.format(Locale.ROOT, ", %.2fx the first", c.totalMs() / first.get().totalMs());
                }
                return text;
            }).orElse("-")));
            rows.add(row("  by process", runs, r -> cost(r, phase).map(c -> {
                StringBuilder b = new StringBuilder();
                c.cpuMs().forEach((p, ms) -> b.append(p).append(' ').append(String.format(Locale.ROOT, "%.2f", ms))
                        .append("  "));
                return b.toString().trim();
            }).orElse("-")));
        }
        rows.add(row("exit checks", runs, r -> r.result().passed() ? "PASS" : "FAIL"));
        return rows;
    }

    public static String render(List<Labelled> runs) {
        List<String[]> rows = rows(runs);
        StringBuilder out = new StringBuilder("\n== " + runs.get(0).result().run().scenario() + ": "
                + runs.size() + " runs side by side ==\n");
        for (String[] row : rows) {
            out.append(row[0]).append('\n');
            for (int i = 1; i < row.length; i++) {
                out.append(String.format(Locale.ROOT, "    %-28s %s%n", rows.get(0)[i] + ":", row[i]));
            }
        }
        return out.toString();
    }

    private static Optional<DrillResult.Phase> phase(Labelled r, String name) {
        return r.result().measured().phases().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private static Optional<Costs.Cost> cost(Labelled r, String phase) {
        return r.result().measured().costs().stream().filter(c -> c.phase().equals(phase)).findFirst();
    }

    private static String[] row(String name, List<Labelled> runs, Function<Labelled, String> value) {
        String[] row = new String[runs.size() + 1];
        row[0] = name;
        for (int i = 0; i < runs.size(); i++) {
            row[i + 1] = value.apply(runs.get(i));
        }
        return row;
    }

    private static String v(Double d) {
        return d == null ? "-" : String.valueOf(d.longValue());
    }
}
