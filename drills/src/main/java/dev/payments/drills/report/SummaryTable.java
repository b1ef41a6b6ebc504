package dev.payments.drills.report;

import dev.payments.drills.analysis.Costs;
import dev.payments.drills.analysis.DrillResult;
import dev.payments.drills.analysis.Stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The numbers the field reports used, as a plain two-column table. */
public final class SummaryTable {

    private SummaryTable() {
    }

    public static List<String[]> rows(DrillResult r) {
        List<String[]> rows = new ArrayList<>();
        DrillResult.Measurements m = r.measured();
        var a = m.audit().books();
        rows.add(row("approvals sent", m.ordersSent() + (m.notSent() > 0 ? " (+" + m.notSent() + " not sent: client saturated)" : "")));
        rows.add(row("outcomes (client)", format(m.outcomes())));
        rows.add(row("survivors (PG-approved and PAID)", a.paidOrders() + " of " + a.orders() + " (payments APPROVED "
                + a.approvedPayments() + ", orders PAID " + a.orderStatuses().getOrDefault("PAID", 0L) + ")"));
        rows.add(row("compensating cancels", String.valueOf(a.cancellations())));
        rows.add(row("incidents", String.valueOf(a.incidents())));
        rows.add(row("ledger (drill)", a.identity() + (a.holds() ? "  HOLDS" : "  DOES NOT HOLD")));
        if (m.audit().reconciliationIdentity() != null) {
            rows.add(row("ledger (reconciliation)", m.audit().reconciliationIdentity()
                    + (Boolean.TRUE.equals(m.audit().reconciliationHolds()) ? "  HOLDS" : "  DOES NOT HOLD")));
        }
        rows.add(row("latency p50/p95/p99/max", Stats.ms(m.latency().p50()) + " / " + Stats.ms(m.latency().p95())
                + " / " + Stats.ms(m.latency().p99()) + " / " + Stats.ms(m.latency().max())));
        for (DrillResult.Phase p : m.phases()) {
            rows.add(row("  phase " + p.name(), p.count() + " sent, " + p.throughputPerSecond() + "/s, approved "
                    + p.approvedPerSecondTimes100() / 100.0 + "/s, p95 " + Stats.ms(p.latency().p95()) + ", p99 "
                    + Stats.ms(p.latency().p99()) + ", max " + Stats.ms(p.latency().max()) + "  " + format(p.outcomes())));
        }
        rows.add(row("DB pool pending max / timeouts", v(m.pool().pendingMax()) + " / " + v(m.pool().timeouts())));
        for (Costs.Cost c : m.costs()) {
            rows.add(row("CPU ms per approval, " + c.phase(), cpu(c)));
            // PostgreSQL's processes all; a JVM's thread groups from 0.05 ms up, the rest is noise beside them.
            c.threadGroupsMs().forEach((process, groups) -> {
                boolean postgres = process.equals("postgres");
                String shown = groups(groups, postgres ? Double.NEGATIVE_INFINITY : 0.05);
                if (!shown.isEmpty()) {
                    rows.add(row("  " + process + (postgres ? " by process, " : " by thread group, ") + c.phase(),
                            shown));
                }
            });
            if (!c.perApproval().isEmpty()) {
                rows.add(row("  database per approval, " + c.phase(), database(c)));
            }
        }
        StringBuilder t = new StringBuilder();
        m.breakerTransitions().forEach(tr -> t.append(String.format(Locale.ROOT, "%s->%s @%.2fs  ", tr.from(), tr.to(), tr.t())));
        rows.add(row("breaker transitions", t.length() == 0 ? "-" : t.toString().trim()));
        var d = m.detect();
        if (d.faultAt() != null) {
            rows.add(row("fault at", Stats.s(d.faultAt())));
            rows.add(row("detect: first failure / breaker OPEN", Stats.s(d.firstFailureAfter()) + " / "
                    + Stats.s(d.breakerOpenAfter()) + " after the fault"));
            rows.add(row("detect: alert true / firing (1 min)", Stats.s(d.alertPendingAfter()) + " / "
                    + Stats.s(d.alertFiringAfter()) + " after the fault"));
        }
        var rec = m.recover();
        rows.add(row("recover: all settled / consumers caught up", Stats.s(rec.allSettledAfter()) + " / "
                + Stats.s(rec.consumersCaughtUpAfter()) + " after " + Stats.s(rec.recoveredAt()) + " ("
                + rec.unsettledAtRecovery() + " unsettled then)"));
        for (DrillResult.Target target : r.targets()) {
            rows.add(row("target: " + target.name(), target.measured() + " (goal " + target.goal() + ") "
                    + (target.met() == null ? "n/a" : target.met() ? "MET" : "NOT MET")));
        }
        for (DrillResult.Check c : r.checks()) {
            rows.add(row("check: " + c.name(), (c.passed() ? "PASS " : "FAIL ") + c.detail()));
        }
        return rows;
    }

    public static String render(DrillResult r) {
        List<String[]> rows = rows(r);
        int width = rows.stream().mapToInt(row -> row[0].length()).max().orElse(10);
        StringBuilder out = new StringBuilder();
        out.append("\n== ").append(r.run().scenario()).append(" (").append(r.run().reproduces()).append(") ==\n");
        for (String[] row : rows) {
            out.append(String.format(Locale.ROOT, "%-" + width + "s  %s%n", row[0], row[1]));
        }
        out.append(r.passed() ? "RESULT: PASS (nothing lost, nothing doubled, ledger holds)\n"
                : "RESULT: FAIL\n");
        return out.toString();
    }

    /** "total 12.3 ms (system 10.1) = payment-service 4.2 + postgres 3.1 + ...; 1.85 cores (machine 2.00)". */
    public static String cpu(Costs.Cost c) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "total %.2f ms (without the load generator %.2f) =",
                c.totalMs(), c.systemMs()));
        String plus = " ";
        for (Map.Entry<String, Double> e : c.cpuMs().entrySet()) {
            b.append(plus).append(e.getKey()).append(' ').append(String.format(Locale.ROOT, "%.2f", e.getValue()));
            plus = " + ";
        }
        b.append(String.format(Locale.ROOT, "; %d approvals in %.1f s of steady state (%.1f/s), %.2f cores",
                c.approvals(), c.to() - c.from(), c.approvedPerSecond(), c.cores()));
        if (c.machineCores() != null) {
            b.append(String.format(Locale.ROOT, " (whole machine %.2f)", c.machineCores()));
        }
        return b.toString();
    }

    /** "backends payments 3.10 + walsender payments 1.20 + ...", largest first; groups under {@code min} ms left out. */
    static String groups(Map<String, Double> groups, double min) {
        StringBuilder b = new StringBuilder();
        groups.forEach((group, ms) -> {
            if (ms >= min) {
                b.append(b.length() == 0 ? "" : " + ").append(group).append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", ms));
            }
        });
        return b.toString();
    }

    /** "payments 2.00 commits 7.00 statements; orders ...; WAL 3.10 syncs". */
    public static String database(Costs.Cost c) {
        Map<String, StringBuilder> byDatabase = new java.util.LinkedHashMap<>();
        c.perApproval().forEach((key, value) -> {
            String[] parts = key.split("/");
            String owner = parts[0].equals("wal") ? "WAL" : parts[1];
            String what = parts[parts.length - 1];
            if (value > 0 && !owner.equals("postgres")) {
                byDatabase.computeIfAbsent(owner, k -> new StringBuilder(k))
                        .append(String.format(Locale.ROOT, " %.2f %s", value, what));
            }
        });
        return String.join("; ", byDatabase.values());
    }

    static String format(Map<String, Long> counts) {
        StringBuilder b = new StringBuilder();
        counts.forEach((k, v) -> b.append(k).append(' ').append(v).append("  "));
        return b.toString().trim();
    }

    private static String v(Double d) {
        return d == null ? "-" : String.valueOf(d.longValue());
    }

    private static String[] row(String k, String v) {
        return new String[]{k, v};
    }
}
