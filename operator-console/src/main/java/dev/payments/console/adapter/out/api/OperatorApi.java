package dev.payments.console.adapter.out.api;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The services' operator APIs as the signed-in operator. The clients carry the operator's own access token (added by
 * Spring Security's OAuth2 interceptor), so every service decides what this person may see and do. Answers are
 * plain maps and lists for the pages; the services' documents (docs/api/) define them.
 */
public final class OperatorApi {

    private static final Logger log = LoggerFactory.getLogger(OperatorApi.class);
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    private static final TypeReference<List<Map<String, Object>>> LIST = new TypeReference<>() {
    };

    private final Map<Service, RestClient> clients;
    private final ObjectMapper json;

    public OperatorApi(Map<Service, RestClient> clients, ObjectMapper json) {
        this.clients = Map.copyOf(clients);
        this.json = json;
    }

    public Map<String, Object> get(Service service, String path, Object... variables) {
        return call(service, path, () -> clients.get(service).get().uri(path, variables)
                .accept(MediaType.APPLICATION_JSON).retrieve().body(String.class));
    }

    /** A GET with query parameters; each value is encoded as a URI variable, so none can change the query's shape. */
    public Map<String, Object> get(Service service, String path, Map<String, ?> query) {
        return call(service, path, () -> clients.get(service).get().uri(builder -> {
                    builder.path(path);
                    query.keySet().forEach(name -> builder.queryParam(name, "{" + name + "}"));
                    return builder.build(query);
                })
                .accept(MediaType.APPLICATION_JSON).retrieve().body(String.class));
    }

    /** A GET whose answer is a JSON array (notification-service's lists), with query parameters encoded as in {@link #get}. */
    public List<Map<String, Object>> list(Service service, String path, Map<String, ?> query) {
        return call(service, path, () -> clients.get(service).get().uri(builder -> {
                    builder.path(path);
                    query.keySet().forEach(name -> builder.queryParam(name, "{" + name + "}"));
                    return builder.build(query);
                })
                .accept(MediaType.APPLICATION_JSON).retrieve().body(String.class), LIST, List.of());
    }

    public Map<String, Object> post(Service service, Object body, String path, Object... variables) {
        return post(service, null, body, path, variables);
    }

    /**
     * A POST the service makes once per key: sent again with the same {@code idempotencyKey} (a double click, a
     * resubmitted form) it answers with what it did the first time. The key is the console's own, never typed.
     */
    public Map<String, Object> postOnce(Service service, String idempotencyKey, Object body, String path,
                                        Object... variables) {
        return post(service, java.util.Objects.requireNonNull(idempotencyKey), body, path, variables);
    }

    private Map<String, Object> post(Service service, String idempotencyKey, Object body, String path,
                                     Object[] variables) {
        return call(service, path, () -> {
            RestClient.RequestBodySpec request = clients.get(service).post().uri(path, variables)
                    .accept(MediaType.APPLICATION_JSON);
            if (idempotencyKey != null) {
                request.header("Idempotency-Key", idempotencyKey);
            }
            if (body != null) {
                request.contentType(MediaType.APPLICATION_JSON).body(body);
            }
            return request.retrieve().body(String.class);
        });
    }

    /** Where a download goes once the service said yes: the console's own response to the browser. */
    public interface Download {
        OutputStream open(String contentType, String contentDisposition) throws IOException;
    }

    /**
     * A GET whose answer is passed through to {@code target} as it arrives (a CSV export), never held whole. A refusal
     * is thrown as its problem before anything is written, so the page can still show it.
     */
    public void download(Service service, String path, Map<String, ?> query, String accept, Download target) {
        try {
            clients.get(service).get().uri(builder -> {
                        builder.path(path);
                        query.keySet().forEach(name -> builder.queryParam(name, "{" + name + "}"));
                        return builder.build(query);
                    })
                    .header(HttpHeaders.ACCEPT, accept + ", " + MediaType.APPLICATION_PROBLEM_JSON_VALUE)
                    .exchange((request, response) -> {
                        if (response.getStatusCode().isError()) {
                            throw problem(response.getStatusCode().value(),
                                    new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8),
                                    response.getStatusText());
                        }
                        try (OutputStream out = target.open(String.valueOf(response.getHeaders().getContentType()),
                                response.getHeaders().getFirst(HttpHeaders.CONTENT_DISPOSITION))) {
                            response.getBody().transferTo(out);
                        }
                        return null;
                    });
        } catch (ResourceAccessException unreachable) {
            log.warn("{} unreachable for {}: {}", service, path, unreachable.getMessage());
            throw new ApiProblem(503, "SERVICE_UNAVAILABLE", service.name().toLowerCase() + " service could not be reached");
        }
    }

    private interface Call {
        String send();
    }

    private Map<String, Object> call(Service service, String path, Call call) {
        return call(service, path, call, OBJECT, Map.of());
    }

    private <T> T call(Service service, String path, Call call, TypeReference<T> answer, T none) {
        try {
            String body = call.send();
            return body == null || body.isBlank() ? none : json.readValue(body, answer);
        } catch (RestClientResponseException refused) {
            throw problem(refused);
        } catch (ResourceAccessException unreachable) {
            // The path template only: ids typed by the operator are not logged.
            log.warn("{} unreachable for {}: {}", service, path, unreachable.getMessage());
            throw new ApiProblem(503, "SERVICE_UNAVAILABLE", service.name().toLowerCase() + " service could not be reached");
        } catch (IOException unreadable) {
            log.warn("{} answered {} with a body that is not JSON", service, path);
            throw new ApiProblem(502, "BAD_ANSWER", service.name().toLowerCase() + " service answered something unreadable");
        }
    }

    /** A problem+json answer keeps its code and detail; anything else is named by its status alone. */
    ApiProblem problem(RestClientResponseException refused) {
        return problem(refused.getStatusCode().value(), refused.getResponseBodyAsString(), refused.getStatusText());
    }

    private ApiProblem problem(int status, String body, String statusText) {
        try {
            JsonNode problem = json.readTree(body);
            String code = problem.path("code").asText("");
            if (!code.isEmpty()) {
                return new ApiProblem(status, code, problem.path("detail").asText(""));
            }
        } catch (IOException notJson) {
            // Not a problem document (a proxy's page, an empty 502): the status is all there is to show.
        }
        return new ApiProblem(status, "HTTP_" + status, statusText);
    }

    /** The items of a list field of an answer, empty when it has none. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> items(Map<String, Object> answer, String field) {
        Object value = answer.get(field);
        return value instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }
}
