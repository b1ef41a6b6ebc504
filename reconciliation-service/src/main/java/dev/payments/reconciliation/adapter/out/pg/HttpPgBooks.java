package dev.payments.reconciliation.adapter.out.pg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.ledger.PgBooks;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The PG's transaction listing in the Toss v1 shape, {@code GET /v1/transactions} (paged by cursor), with HTTP Basic
 * auth of the secret key: the ledger audit's independent witness of what the PG booked. It is reconciliation's only
 * direct path to the PG; whatever a payment's PG answer means is decided by payment-service, whose sync the settler
 * drives. Reads only: repairs go through payment-service, which owns the payments.
 */
public class HttpPgBooks implements PgBooks {

    /** A runaway listing (a cursor that never ends) must not hang the audit. */
    private static final int MAX_PAGES = 10_000;
    private static final String LISTING = "/v1/transactions?from={from}&to={to}&limit={limit}";

    private final RestClient http;
    private final int pageSize;
    private final ObjectMapper json;

    /**
     * @param http Boot's builder (observed: a metric and a span per call) with the PG's base URL and the connect and
     *             read (per page) timeouts
     */
    public HttpPgBooks(RestClient.Builder http, String secretKey, int pageSize, ObjectMapper json) {
        this.http = http.defaultHeader(HttpHeaders.AUTHORIZATION, "Basic " + Base64.getEncoder()
                        .encodeToString((secretKey + ":").getBytes(StandardCharsets.UTF_8)))
                .build();
        this.pageSize = pageSize;
        this.json = json;
    }

    /** What the PG answered, read whatever the status. */
    private record Answer(int status, String body) {
    }

    @Override
    public List<PgTransaction> transactions(Instant from, Instant to) {
        List<PgTransaction> all = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            Map<String, Object> query = new HashMap<>();
            query.put("from", from.toString());
            query.put("to", to.toString());
            query.put("limit", pageSize);
            if (cursor != null) {
                query.put("cursor", cursor);
            }
            JsonNode body = body(get(cursor == null ? LISTING : LISTING + "&startingAfter={cursor}", query));
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

    private JsonNode body(Answer answer) {
        if (answer.status() / 100 != 2) {
            throw new PgUnavailableException("the PG answered " + answer.status() + ": " + abbreviate(answer.body()),
                    null);
        }
        try {
            return json.readTree(answer.body());
        } catch (JsonProcessingException e) {
            throw new PgUnavailableException("unreadable PG answer: " + abbreviate(answer.body()), e);
        }
    }

    private Answer get(String uriTemplate, Map<String, ?> variables) {
        try {
            return http.get().uri(uriTemplate, variables).accept(MediaType.APPLICATION_JSON)
                    .exchange((request, response) -> new Answer(response.getStatusCode().value(),
                            new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8)));
        } catch (RestClientException e) {
            throw new PgUnavailableException("the PG could not be read: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? null : value.asText();
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 300 ? String.valueOf(text) : text.substring(0, 300) + "...";
    }
}
