package dev.payments.drills.report;

import dev.payments.drills.observe.MetricsSampler;
import dev.payments.drills.observe.Sample;
import dev.payments.drills.analysis.DrillResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One self-contained page: the verdict, the summary table, and charts over time. Renders with no network. */
public final class HtmlReport {

    static final Map<String, String> OUTCOME_COLORS = new LinkedHashMap<>();

    static {
        OUTCOME_COLORS.put("approved", "#2e8b57");
        OUTCOME_COLORS.put("declined", "#8fbc8f");
        OUTCOME_COLORS.put("pending", "#e0a800");
        OUTCOME_COLORS.put("failed", "#d2691e");
        OUTCOME_COLORS.put("pg_unavailable", "#4169e1");
        OUTCOME_COLORS.put("unavailable", "#6a5acd");
        OUTCOME_COLORS.put("overloaded", "#9370db");
        OUTCOME_COLORS.put("rate_limited", "#999999");
        OUTCOME_COLORS.put("conflict", "#bbbbbb");
        OUTCOME_COLORS.put("order_not_found", "#dddddd");
        OUTCOME_COLORS.put("connection_refused", "#b22222");
        OUTCOME_COLORS.put("client_timeout", "#800000");
        OUTCOME_COLORS.put("io_error", "#ff4500");
        OUTCOME_COLORS.put("http_500", "#ff0000");
    }

    private HtmlReport() {
    }

    public static String render(DrillResult r) {
        DrillResult.Run run = r.run();
        DrillResult.Measurements m = r.measured();
        double tMax = Math.max(1, m.durationSeconds());
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>drill ")
                .append(Svg.esc(run.scenario())).append("</title><style>")
                .append("body{font-family:sans-serif;margin:24px;color:#222;max-width:960px}")
                .append("table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}")
                .append(".pass{color:#fff;background:#2e8b57;padding:4px 10px}.fail{color:#fff;background:#b22222;padding:4px 10px}")
                .append("svg{display:block;margin:10px 0;background:#fcfcfc;border:1px solid #eee}")
                .append("svg text.t{font-size:13px;font-weight:bold}svg text.a{font-size:10px;fill:#555}")
                .append("svg text.l{font-size:11px}svg text.m{font-size:10px;fill:#c33}code{font-size:12px}")
                .append("</style></head><body>");
        b.append("<h1>").append(Svg.esc(run.scenario())).append(" <small>(").append(Svg.esc(run.reproduces()))
                .append(")</small></h1>");
        b.append("<p>").append(Svg.esc(run.description())).append("</p>");
        b.append("<p><span class=\"").append(r.passed() ? "pass\">PASS" : "fail\">FAIL")
                .append("</span> nothing lost, nothing doubled, ledger holds</p>");
        b.append("<p><code>").append(Svg.esc(run.command())).append("</code><br>").append(Svg.esc(run.startedAt()))
                .append(" · ").append(run.machine().cpus()).append(" CPUs · ").append(Svg.esc(run.machine().java()))
                .append(" · ").append(Svg.esc(run.machine().os())).append("</p>");
        b.append("<h2>Summary</h2><table>");
        for (String[] row : SummaryTable.rows(r)) {
            b.append("<tr><th>").append(Svg.esc(row[0])).append("</th><td>").append(Svg.esc(row[1])).append("</td></tr>");
        }
        b.append("</table>");
        b.append(concurrency(r));

        b.append("<h2>Over time</h2>");
        List<Svg.Point> p50 = new ArrayList<>();
        List<Svg.Point> p99 = new ArrayList<>();
        List<Svg.Point> max = new ArrayList<>();
        Map<Integer, Map<String, Long>> bySecond = new TreeMap<>();
        for (DrillResult.Second s : m.seconds()) {
            p50.add(new Svg.Point(s.t() + 0.5, s.p50()));
            p99.add(new Svg.Point(s.t() + 0.5, s.p99()));
            max.add(new Svg.Point(s.t() + 0.5, s.max()));
            bySecond.put(s.t(), s.outcomes());
        }
        b.append(Svg.lines("Approval latency by second of answer (ms, log scale)", "", List.of(
                new Svg.Series("p50", "#2e8b57", p50, false), new Svg.Series("p99", "#e0a800", p99, false),
                new Svg.Series("max", "#b22222", max, false)), tMax, true, m.marks()));
        Map<String, String> colors = new LinkedHashMap<>(OUTCOME_COLORS);
        m.outcomes().keySet().forEach(k -> colors.putIfAbsent(k, "#ff00ff"));
        b.append(Svg.bars("Answers per second by outcome", bySecond, colors, tMax, m.marks()));

        List<Svg.Point> pending = new ArrayList<>();
        List<Svg.Point> active = new ArrayList<>();
        List<Svg.Point> timeouts = new ArrayList<>();
        List<Svg.Point> lag = new ArrayList<>();
        for (Sample s : m.samples()) {
            if (s.poolPending() != null) {
                pending.add(new Svg.Point(s.t(), s.poolPending()));
            }
            if (s.poolActive() != null) {
                active.add(new Svg.Point(s.t(), s.poolActive()));
            }
            if (s.poolTimeouts() != null) {
                timeouts.add(new Svg.Point(s.t(), s.poolTimeouts()));
            }
            if (s.consumerLag() != null) {
                lag.add(new Svg.Point(s.t(), s.consumerLag().values().stream().mapToLong(Long::longValue).sum()));
            }
        }
        b.append(Svg.lines("payment-service DB pool (connections)", "", List.of(
                new Svg.Series("pending", "#b22222", pending, true), new Svg.Series("active", "#4169e1", active, true),
                new Svg.Series("timeouts (cumulative)", "#800080", timeouts, true)), tMax, false, m.marks()));
        b.append(Svg.lines("Breaker pg-approve: 0 CLOSED, 1 HALF_OPEN, 2 OPEN", "", List.of(
                new Svg.Series("state", "#4169e1", breakerPoints(m.breakerTransitions()), true)), tMax, false, m.marks()));
        b.append(Svg.lines("Consumer lag, all service groups (records)", "", List.of(
                new Svg.Series("lag", "#d2691e", lag, true)), tMax, false, m.marks()));

        // The breaker's transitions are a row of the summary table; the chart above draws them.
        b.append("<h2>Parameters and settings</h2><table>");
        run.parameters().forEach((k, v) -> b.append("<tr><th>").append(Svg.esc(k)).append("</th><td>")
                .append(Svg.esc(String.valueOf(v))).append("</td></tr>"));
        run.settings().forEach((k, v) -> b.append("<tr><th>").append(Svg.esc(k)).append("</th><td>")
                .append(Svg.esc(String.join(" ", v))).append("</td></tr>"));
        b.append("<tr><th>target</th><td>").append(Svg.esc(run.target())).append("</td></tr></table>");
        if (!r.extra().isEmpty()) {
            b.append("<h2>Scenario details</h2><pre>").append(Svg.esc(Reports.pretty(r.extra()))).append("</pre>");
        }
        b.append("<h2>Notes</h2><ul>");
        r.notes().forEach(n -> b.append("<li>").append(Svg.esc(n)).append("</li>"));
        b.append("</ul><p>Alert rule evaluated: ").append(Svg.esc(m.detect().rule())).append("</p></body></html>\n");
        return b.toString();
    }

    /**
     * 000's question, "where p95 bends, and the TPS": approvals/s and p95 of each closed-loop step ({@code C=n})
     * against its concurrency, with Little's bound C / PG latency as a line; empty without two such steps.
     */
    static String concurrency(DrillResult result) {
        List<DrillResult.Phase> closed = result.measured().phases().stream().filter(p -> p.name().startsWith("C="))
                .toList();
        if (closed.size() < 2) {
            return "";
        }
        Object latencyMs = result.run().parameters().get("latency-ms");
        List<Svg.Point> approved = new ArrayList<>();
        List<Svg.Point> bound = new ArrayList<>();
        List<Svg.Point> p95 = new ArrayList<>();
        double cMax = 0;
        for (DrillResult.Phase p : closed) {
            double c = Double.parseDouble(p.name().substring(2));
            cMax = Math.max(cMax, c);
            approved.add(new Svg.Point(c, p.approvedPerSecondTimes100() / 100.0));
            if (latencyMs instanceof Number l && l.doubleValue() > 0) {
                bound.add(new Svg.Point(c, c * 1000 / l.doubleValue()));
            }
            if (p.latency().p95() != null) {
                p95.add(new Svg.Point(c, p.latency().p95()));
            }
        }
        List<Svg.Series> throughput = new ArrayList<>(List.of(new Svg.Series("approved/s", "#2e8b57", approved, false)));
        if (!bound.isEmpty()) {
            throughput.add(new Svg.Series("C / PG latency (Little's bound)", "#999999", bound, false));
        }
        return "<h2>Against concurrency</h2>"
                + Svg.lines("Approvals per second by closed-loop concurrency", "/s", throughput, cMax, false, List.of(), "")
                + Svg.lines("p95 latency by closed-loop concurrency (ms)", "", List.of(
                        new Svg.Series("p95", "#e0a800", p95, false)), cMax, false, List.of(), "");
    }

    private static List<Svg.Point> breakerPoints(List<MetricsSampler.Transition> transitions) {
        List<Svg.Point> points = new ArrayList<>();
        for (MetricsSampler.Transition t : transitions) {
            double v = switch (t.to()) {
                case "OPEN" -> 2;
                case "HALF_OPEN" -> 1;
                default -> 0;
            };
            points.add(new Svg.Point(t.t(), v));
        }
        return points;
    }
}
