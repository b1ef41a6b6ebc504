package dev.payments.drills.report;

import dev.payments.drills.observe.Timeline;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Inline SVG charts over drill time; no scripts, no fonts or styles from anywhere else. */
final class Svg {

    static final int W = 900;
    static final int H = 220;
    static final int LEFT = 60;
    static final int RIGHT = 20;
    static final int TOP = 28;
    static final int BOTTOM = 30;

    record Point(double t, double v) {
    }

    record Series(String name, String color, List<Point> points, boolean step) {
    }

    private Svg() {
    }

    static String lines(String title, String unit, List<Series> series, double tMax, boolean log,
                        List<Timeline.Mark> marks) {
        return lines(title, unit, series, tMax, log, marks, " s");
    }

    /** @param xUnit what the x axis counts (" s" for drill time, "" for concurrency) */
    static String lines(String title, String unit, List<Series> series, double tMax, boolean log,
                        List<Timeline.Mark> marks, String xUnit) {
        double vMax = series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::v).max().orElse(1);
        vMax = log ? Math.pow(10, Math.ceil(Math.log10(Math.max(vMax, 10)))) : niceCeil(Math.max(vMax, 1));
        double top = vMax;
        StringBuilder b = frame(title, tMax, marks, xUnit);
        // y axis ticks
        if (log) {
            for (double v = 1; v <= top; v *= 10) {
                double y = yLog(v, top);
                b.append(gridY(y, label(v) + unit));
            }
        } else {
            for (int i = 0; i <= 4; i++) {
                double v = top * i / 4;
                b.append(gridY(yLin(v, top), label(v) + unit));
            }
        }
        int legendX = LEFT + 10;
        for (Series s : series) {
            StringBuilder path = new StringBuilder();
            double prevY = Double.NaN;
            double prevT = Double.NaN;
            for (Point p : s.points()) {
                double x = x(p.t(), tMax);
                double y = log ? yLog(Math.max(p.v(), 1), top) : yLin(p.v(), top);
                boolean gap = !s.step() && p.t() - prevT > 2.5;   // no answers for a while: do not draw a line across
                prevT = p.t();
                if (path.length() == 0 || gap) {
                    path.append(path.length() == 0 ? "M" : " M").append(f(x)).append(',').append(f(y));
                } else if (s.step()) {
                    path.append(" L").append(f(x)).append(',').append(f(prevY)).append(" L").append(f(x)).append(',')
                            .append(f(y));
                } else {
                    path.append(" L").append(f(x)).append(',').append(f(y));
                }
                prevY = y;
            }
            if (s.step() && !s.points().isEmpty()) {
                path.append(" L").append(f(x(tMax, tMax))).append(',').append(f(prevY));
            }
            if (path.length() > 0) {
                b.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(s.color())
                        .append("\" stroke-width=\"1.6\"/>");
            }
            if (s.points().size() == 1 || (!s.step() && s.points().size() < 60)) {
                for (Point p : s.points()) {
                    double y = log ? yLog(Math.max(p.v(), 1), top) : yLin(p.v(), top);
                    b.append("<circle cx=\"").append(f(x(p.t(), tMax))).append("\" cy=\"").append(f(y))
                            .append("\" r=\"2\" fill=\"").append(s.color()).append("\"/>");
                }
            }
            b.append("<rect x=\"").append(legendX).append("\" y=\"").append(TOP - 16).append("\" width=\"10\" height=\"10\" fill=\"")
                    .append(s.color()).append("\"/><text x=\"").append(legendX + 14).append("\" y=\"").append(TOP - 7)
                    .append("\" class=\"l\">").append(esc(s.name())).append("</text>");
            legendX += 24 + s.name().length() * 7;
        }
        return b.append("</svg>").toString();
    }

    /** Stacked bars per second: counts by outcome label. */
    static String bars(String title, Map<Integer, Map<String, Long>> bySecond, Map<String, String> colors, double tMax,
                       List<Timeline.Mark> marks) {
        long vMaxRaw = bySecond.values().stream().mapToLong(m -> m.values().stream().mapToLong(Long::longValue).sum())
                .max().orElse(1);
        double top = niceCeil(Math.max(vMaxRaw, 1));
        StringBuilder b = frame(title, tMax, marks, " s");
        for (int i = 0; i <= 4; i++) {
            double v = top * i / 4;
            b.append(gridY(yLin(v, top), label(v) + "/s"));
        }
        double barW = Math.max(1, (W - LEFT - RIGHT) / Math.max(tMax, 1) - 1);
        bySecond.forEach((t, counts) -> {
            double base = 0;
            for (Map.Entry<String, String> c : colors.entrySet()) {
                long n = counts.getOrDefault(c.getKey(), 0L);
                if (n == 0) {
                    continue;
                }
                double y0 = yLin(base, top);
                double y1 = yLin(base + n, top);
                b.append("<rect x=\"").append(f(x(t, tMax))).append("\" y=\"").append(f(y1)).append("\" width=\"")
                        .append(f(barW)).append("\" height=\"").append(f(Math.max(0.5, y0 - y1))).append("\" fill=\"")
                        .append(c.getValue()).append("\"><title>").append(t).append(" s: ").append(n).append(' ')
                        .append(esc(c.getKey())).append("</title></rect>");
                base += n;
            }
        });
        int legendX = LEFT + 10;
        for (Map.Entry<String, String> c : colors.entrySet()) {
            boolean used = bySecond.values().stream().anyMatch(m -> m.getOrDefault(c.getKey(), 0L) > 0);
            if (!used) {
                continue;
            }
            b.append("<rect x=\"").append(legendX).append("\" y=\"").append(TOP - 16).append("\" width=\"10\" height=\"10\" fill=\"")
                    .append(c.getValue()).append("\"/><text x=\"").append(legendX + 14).append("\" y=\"").append(TOP - 7)
                    .append("\" class=\"l\">").append(esc(c.getKey())).append("</text>");
            legendX += 24 + c.getKey().length() * 7;
        }
        return b.append("</svg>").toString();
    }

    private static StringBuilder frame(String title, double tMax, List<Timeline.Mark> marks, String xUnit) {
        StringBuilder b = new StringBuilder();
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" width=\"").append(W).append("\" height=\"").append(H).append("\" role=\"img\"><title>")
                .append(esc(title)).append("</title>");
        b.append("<text x=\"").append(W - RIGHT).append("\" y=\"14\" text-anchor=\"end\" class=\"t\">").append(esc(title))
                .append("</text>");
        b.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(H - BOTTOM).append("\" x2=\"").append(W - RIGHT)
                .append("\" y2=\"").append(H - BOTTOM).append("\" stroke=\"#888\"/>");
        double step = niceCeil(tMax / 10);
        for (double t = 0; t <= tMax + 1e-9; t += step) {
            double x = x(t, tMax);
            b.append("<line x1=\"").append(f(x)).append("\" y1=\"").append(H - BOTTOM).append("\" x2=\"").append(f(x))
                    .append("\" y2=\"").append(H - BOTTOM + 4).append("\" stroke=\"#888\"/><text x=\"").append(f(x))
                    .append("\" y=\"").append(H - BOTTOM + 16).append("\" text-anchor=\"middle\" class=\"a\">")
                    .append(label(t)).append(esc(xUnit)).append("</text>");
        }
        int i = 0;
        for (Timeline.Mark m : marks) {
            if (m.name().equals("load end") || m.name().equals("settling") || m.name().equals("audit")
                    || m.name().equals("done") || m.name().equals("placing orders")) {
                continue;
            }
            double x = x(m.t(), tMax);
            b.append("<line x1=\"").append(f(x)).append("\" y1=\"").append(TOP).append("\" x2=\"").append(f(x))
                    .append("\" y2=\"").append(H - BOTTOM).append("\" stroke=\"#c33\" stroke-dasharray=\"3,3\"/>")
                    .append("<text x=\"").append(f(x + 3)).append("\" y=\"").append(TOP + 10 + (i++ % 4) * 11)
                    .append("\" class=\"m\">").append(esc(m.name())).append("</text>");
        }
        return b;
    }

    private static String gridY(double y, String text) {
        return "<line x1=\"" + LEFT + "\" y1=\"" + f(y) + "\" x2=\"" + (W - RIGHT) + "\" y2=\"" + f(y)
                + "\" stroke=\"#eee\"/><text x=\"" + (LEFT - 4) + "\" y=\"" + f(y + 4)
                + "\" text-anchor=\"end\" class=\"a\">" + esc(text) + "</text>";
    }

    static double x(double t, double tMax) {
        return LEFT + (W - LEFT - RIGHT) * Math.max(0, t) / Math.max(tMax, 1e-9);
    }

    private static double yLin(double v, double top) {
        return H - BOTTOM - (H - BOTTOM - TOP) * v / top;
    }

    private static double yLog(double v, double top) {
        return H - BOTTOM - (H - BOTTOM - TOP) * Math.log10(v) / Math.log10(top);
    }

    static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[]{1, 2, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String label(double v) {
        if (v >= 1000 && v % 1000 == 0) {
            return (long) (v / 1000) + "k";
        }
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
