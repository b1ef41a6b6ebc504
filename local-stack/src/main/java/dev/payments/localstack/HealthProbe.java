package dev.payments.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/** How the launcher decides a child is ready. */
sealed interface HealthProbe {

    HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

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
            return get(uri).map(response -> response.statusCode() == 200 && UP.matcher(response.body()).find())
                    .orElse(false);
        }
    }

    private static Optional<HttpResponse<String>> get(URI uri) {
        try {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).GET().build();
            return Optional.of(HTTP.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
