package dev.payments.reconciliation.adapter.out.pg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.ledger.PgBooks;
import dev.payments.reconciliation.application.settling.PgStatusQuery;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The PG's read API in the Toss v1 shape: {@code GET /v1/transactions} (paged by cursor) and
 * {@code GET /v1/payments/orders/{orderId}}, with HTTP Basic auth of the secret key. Reads only: reconciliation never
 * moves money itself; repairs go through payment-service, which owns the payments.
 */
public class HttpPgBooks implements PgBooks, PgStatusQuery {

    /** A runaway listing (a cursor that never ends) must not hang the audit. */
    private static final int MAX_PAGES = 10_000;

    private final HttpClient http;
    private final URI baseUrl;
    private final String authorization;
    private final Duration timeout;
    private final int pageSize;
    private final ObjectMapper json;

    public HttpPgBooks(URI baseUrl, String secretKey, Duration connectTimeout, Duration timeout, int pageSize,
                       ObjectMapper json) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
        this.baseUrl = baseUrl;
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.pageSize = pageSize;
        this.json = json;
    }

    @Override
    public List<PgTransaction> transactions(Instant from, Instant to) {
        List<PgTransaction> all = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            String query = "from=" + encode(from.toString()) + "&to=" + encode(to.toString()) + "&limit=" + pageSize
                    + (cursor == null ? "" : "&startingAfter=" + encode(cursor));
            JsonNode body = get("/v1/transactions?" + query);
            for (JsonNode t : body.path("transactions")) {
                all.add(new PgTransaction(t.path("transactionKey").asText(), text(t, "paymentKey"), text(t, "orderId"),
                        PgTransaction.Type.valueOf(t.path("type").asText()), t.path("amount").asLong(),
                        text(t, "currency"), OffsetDateTime.parse(t.path("transactedAt").asText()).toInstant()));
            }
            if (!body.path("hasNext").asBoolean(false)) {
                return all;
            }
            cursor = body.path("nextCursor").asText(null);
            if (cursor == null) {
                throw new PgUnavailableException("the PG's listing says there is more but gives no cursor", null);
            }
        }
        throw new PgUnavailableException("the PG's listing did not end after " + MAX_PAGES + " pages", null);
    }

    @Override
    public String stateOfOrder(OrderId orderId) {
        HttpResponse<String> response = send("/v1/payments/orders/" + encode(orderId.toString()));
        if (response.statusCode() == 404) {
            return "NOT_FOUND";
        }
        return body(response).path("status").asText("UNKNOWN");
    }

    private JsonNode get(String path) {
        return body(send(path));
    }

    private JsonNode body(HttpResponse<String> response) {
        if (response.statusCode() / 100 != 2) {
            throw new PgUnavailableException("the PG answered " + response.statusCode() + ": "
                    + abbreviate(response.body()), null);
        }
        try {
            return json.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new PgUnavailableException("unreadable PG answer: " + abbreviate(response.body()), e);
        }
    }

    private HttpResponse<String> send(String path) {
        HttpRequest request = HttpRequest.newBuilder(baseUrl.resolve(path))
                .timeout(timeout)
                .header("Authorization", authorization)
                .header("Accept", "application/json")
                .GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new PgUnavailableException("the PG could not be read at " + request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PgUnavailableException("interrupted while reading the PG", e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 300 ? String.valueOf(text) : text.substring(0, 300) + "...";
    }
}
