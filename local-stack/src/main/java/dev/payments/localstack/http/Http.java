package dev.payments.localstack.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/** The JDK HttpClient on HTTP/1.1 with JSON helpers; every call has a timeout, failures are answers, not exceptions. */
public final class Http {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static final String PG_AUTH = "Basic " + Base64.getEncoder()
            .encodeToString("test_sk_simulator:".getBytes(StandardCharsets.UTF_8));

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param status      the HTTP status, or 0 when there was no answer ({@code error} says why)
     * @param contentType the answer's Content-Type, "" if it had none
     */
    public record Response(int status, String body, String error, String contentType) {

        public JsonNode json() {
            if (body == null || body.isBlank()) {
                return JSON.nullNode();
            }
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                return JSON.nullNode();
            }
        }

        public boolean ok() {
            return status / 100 == 2;
        }
    }

    public Response get(String url, Duration timeout) {
        return get(url, Map.of(), timeout);
    }

    public Response get(String url, Map<String, String> headers, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(timeout).GET();
        headers.forEach(request::header);
        return send(request.build());
    }

    /** The header of a bearer token. */
    public static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    public Response getPg(String url, Duration timeout) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).header("Authorization", PG_AUTH)
                .GET().build());
    }

    /** A POST to the PG's gateway API with the merchant's secret key. */
    public Response postPg(String url, String body, Duration timeout) {
        return send(request("POST", url, Map.of("Authorization", PG_AUTH), body, timeout));
    }

    public Response post(String url, Map<String, String> headers, String body, Duration timeout) {
        return send(request("POST", url, headers, body, timeout));
    }

    public Response put(String url, String body, Duration timeout) {
        return send(request("PUT", url, Map.of(), body, timeout));
    }

    public Response delete(String url, Duration timeout) {
        return send(HttpRequest.newBuilder(URI.create(url)).timeout(timeout).DELETE().build());
    }

    /** Any method and headers; a JSON body, or none (then no Content-Type either). */
    public Response send(String method, String url, Map<String, String> headers, String body, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            builder.header("Content-Type", "application/json");
        }
        headers.forEach(builder::header);
        return send(builder.build());
    }

    private static HttpRequest request(String method, String url, Map<String, String> headers, String body,
                                       Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(builder::header);
        return builder.build();
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body(), null,
                    response.headers().firstValue("Content-Type").orElse(""));
        } catch (java.net.http.HttpTimeoutException e) {
            return new Response(0, null, "client_timeout", "");
        } catch (java.net.ConnectException e) {
            return new Response(0, null, "connection_refused", "");
        } catch (IOException e) {
            return new Response(0, null, "io_error", "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Response(0, null, "interrupted", "");
        }
    }
}
