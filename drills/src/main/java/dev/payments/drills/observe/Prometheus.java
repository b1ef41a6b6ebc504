package dev.payments.drills.observe;

import dev.payments.localstack.http.Http;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Just enough of the Prometheus text format: {@code name{labels} value} lines, summed by a label filter. */
public final class Prometheus {

    private final Map<String, Double> series = new HashMap<>();

    /** One instance's {@code /actuator/prometheus}; empty when it does not answer. */
    public static Prometheus scrape(Http http, String managementUrl, Duration timeout) {
        try {
            Http.Response r = http.get(managementUrl + "/actuator/prometheus", timeout);
            return parse(r.ok() ? r.body() : null);
        } catch (RuntimeException e) {
            return new Prometheus();
        }
    }

    public static Prometheus parse(String text) {
        Prometheus p = new Prometheus();
        if (text == null) {
            return p;
        }
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            try {
                p.series.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (NumberFormatException ignored) {
                // A value like NaN written differently: not a series the drill reads.
            }
        }
        return p;
    }

    /** Sum of every series of {@code name} whose labels contain each of {@code labels} ({@code key="value"}). */
    public Double sum(String name, String... labels) {
        double total = 0;
        boolean found = false;
        for (Map.Entry<String, Double> e : series.entrySet()) {
            String key = e.getKey();
            if (!(key.equals(name) || key.startsWith(name + "{"))) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                if (!key.contains(label)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                total += e.getValue();
                found = true;
            }
        }
        return found ? total : null;
    }

    public boolean isEmpty() {
        return series.isEmpty();
    }
}
