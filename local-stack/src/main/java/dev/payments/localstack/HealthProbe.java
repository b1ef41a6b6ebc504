package dev.payments.localstack;

import dev.payments.localstack.http.Http;

import java.net.URI;
import java.time.Duration;
import java.util.regex.Pattern;

/** How the launcher decides a child is ready. */
sealed interface HealthProbe {

    Http HTTP = new Http();

    URI uri();

    /** One attempt; false on any failure. */
    boolean isHealthy();

    /**
     * {@code GET} answers 200 with {@code "status":"UP"}: Spring Boot's {@code /actuator/health} on the service's
     * management port, and the PG simulator's {@code /admin/health} (on its admin port, so gateway faults do not make
     * it look down).
     */
    record StatusUp(URI uri) implements HealthProbe {

        private static final Pattern UP = Pattern.compile("\"status\"\\s*:\\s*\"UP\"");

        static StatusUp actuator(String managementBaseUrl) {
            return new StatusUp(URI.create(managementBaseUrl + "/actuator/health"));
        }

        static StatusUp pgSimulatorAdmin(String adminBaseUrl) {
            return new StatusUp(URI.create(adminBaseUrl + "/admin/health"));
        }

        @Override
        public boolean isHealthy() {
            Http.Response response = HTTP.get(uri.toString(), Duration.ofSeconds(2));
            return response.status() == 200 && UP.matcher(response.body()).find();
        }
    }
}
