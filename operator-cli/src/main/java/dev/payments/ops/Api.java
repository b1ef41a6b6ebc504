package dev.payments.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One call to the API as the operator; prints the JSON answer (a problem on {@code err}) and returns the exit code. */
final class Api {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper PRINTED = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Re-driving an order's letters waits for Kafka per letter; a replay reads two topics. */
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    /**
     * A 503 OVERLOADED was refused before the service read it (docs/problems.md), so sending it again as it was is
     * safe, POSTs included; the CLI waits the answer's Retry-After (at most {@link #LONGEST_WAIT}) a few times before
     * it gives up and prints the problem.
     */
    private static final int OVERLOADED_ATTEMPTS = 3;
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(10);

    private final URI base;
    private final String token;
    private final PrintWriter out;
    private final PrintWriter err;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    Api(URI base, String token, PrintWriter out, PrintWriter err) {
        this.base = base;
        this.token = token;
        this.out = out;
        this.err = err;
    }

    int get(String pathAndQuery) {
        return send(request(pathAndQuery).GET().build());
    }

    int post(String path, Object body) {
        try {
            HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
            return send(request(path).header("Content-Type", "application/json").POST(publisher).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Accept", "application/json");
    }

    private int send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            for (int attempt = 1; attempt < OVERLOADED_ATTEMPTS && overloaded(response); attempt++) {
                Duration wait = retryAfter(response);
                err.println("The service is overloaded; trying again in " + wait.toMillis() + " ms");
                Thread.sleep(wait.toMillis());
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            }
            String body = pretty(response.body());
            if (response.statusCode() / 100 == 2) {
                out.println(body);
                return 0;
            }
            err.println(response.statusCode() + " " + request.method() + " " + request.uri().getPath());
            err.println(body);
            return 1;
        } catch (IOException e) {
            err.println("Could not reach " + base + ": " + e.getMessage());
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 2;
        }
    }

    private static boolean overloaded(HttpResponse<String> response) {
        if (response.statusCode() != 503) {
            return false;
        }
        try {
            return "OVERLOADED".equals(JSON.readTree(response.body()).path("code").asText());
        } catch (IOException notJson) {
            return false;
        }
    }

    /** Retry-After in seconds (RFC 9110's delay-seconds), 1 s when absent or a date, capped. */
    private static Duration retryAfter(HttpResponse<String> response) {
        Duration wait = response.headers().firstValue("Retry-After").filter(v -> v.matches("\\d{1,6}"))
                .map(v -> Duration.ofSeconds(Long.parseLong(v))).orElse(Duration.ofSeconds(1));
        return wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
    }

    private static String pretty(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode tree = JSON.readTree(body);
            return PRINTED.writeValueAsString(tree);
        } catch (IOException notJson) {
            return body;
        }
    }
}
