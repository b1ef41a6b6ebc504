package dev.payments.reconciliation.support;

import org.springframework.boot.test.web.client.TestRestTemplate;

/**
 * Reads one series from {@code /actuator/prometheus} as an operator's Prometheus would see it: {@code management} is
 * a client of the service's management port.
 */
public final class Prometheus {

    /** Every series carries the service's common tag; labels are exported in name order, so it comes first. */
    private static final String APPLICATION = "application=\"reconciliation-service\"";

    private Prometheus() {
    }

    /** {@code name} or {@code name{label="value"}} with the common tag added, as it appears in the scrape. */
    public static String series(String nameWithLabels) {
        int brace = nameWithLabels.indexOf('{');
        return brace < 0 ? nameWithLabels + "{" + APPLICATION + "}"
                : nameWithLabels.substring(0, brace + 1) + APPLICATION + "," + nameWithLabels.substring(brace + 1);
    }

    /**
     * Calls of one HTTP client route, summed over its outcomes (the {@code http.client.requests} observation).
     *
     * @param uriTemplate how the route's {@code uri} label starts (it keeps a query template, if the call has one)
     */
    public static double httpClientCalls(TestRestTemplate management, String method, String uriTemplate) {
        return management.getForObject("/actuator/prometheus", String.class).lines()
                .filter(line -> line.startsWith("http_client_requests_seconds_count{"))
                .filter(line -> line.contains("method=\"" + method + "\""))
                .filter(line -> line.contains("uri=\"" + uriTemplate))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    /** The current value of a series, or {@code missing} when it is not exported. */
    public static double scrape(TestRestTemplate management, String nameWithLabels, double missing) {
        String wanted = series(nameWithLabels);
        for (String line : management.getForObject("/actuator/prometheus", String.class).split("\n")) {
            if (line.startsWith(wanted + " ")) {
                return Double.parseDouble(line.substring(wanted.length() + 1).trim());
            }
        }
        return missing;
    }
}
