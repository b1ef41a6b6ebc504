package dev.payments.reconciliation.adapter.out.payment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * {@code POST /api/payments/{paymentId}/sync} on payment-service, with the operator token. Every way the call can end
 * becomes a {@link SyncOutcome}; nothing is thrown. The read timeout sits above payment-service's own worst case (a
 * status query and a compensating cancel, each retried), so a slow but successful sync is not counted as a failure.
 */
public class HttpPaymentSync implements PaymentSync {

    static final String TOKEN_HEADER = "X-Operator-Token";

    private final HttpClient http;
    private final URI baseUrl;
    private final String token;
    private final Duration timeout;
    private final ObjectMapper json;

    public HttpPaymentSync(URI baseUrl, String token, Duration connectTimeout, Duration timeout, ObjectMapper json) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
        this.baseUrl = baseUrl;
        this.token = token;
        this.timeout = timeout;
        this.json = json;
    }

    @Override
    public SyncOutcome sync(PaymentId paymentId) {
        HttpRequest request = HttpRequest.newBuilder(baseUrl.resolve("/api/payments/" + paymentId + "/sync"))
                .timeout(timeout)
                .header(TOKEN_HEADER, token)
                .header("Accept", "application/json, application/problem+json")
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new SyncOutcome.Unavailable("payment-service not reachable at " + request.uri() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new SyncOutcome.Unavailable("interrupted while waiting for payment-service");
        }
        return outcome(response);
    }

    private SyncOutcome outcome(HttpResponse<String> response) {
        int status = response.statusCode();
        JsonNode body = parse(response.body());
        String code = body.path("code").asText("");
        String detail = body.path("detail").asText(abbreviate(response.body()));
        if (status == 200) {
            String paymentStatus = body.path("payment").path("status").asText("");
            try {
                return new SyncOutcome.Answered(PaymentStatus.valueOf(paymentStatus),
                        body.path("pgState").asText(null), body.path("action").asText(null));
            } catch (IllegalArgumentException e) {
                return new SyncOutcome.Unavailable("unreadable sync answer (payment status '" + paymentStatus + "'): "
                        + abbreviate(response.body()));
            }
        }
        if (status == 404 && "PAYMENT_NOT_FOUND".equals(code)) {
            return new SyncOutcome.NotFound(detail);
        }
        if (status == 502 && "PG_SYNC_FAILED".equals(code)) {
            return new SyncOutcome.PgFailed(stage(body, detail), detail);
        }
        if (status >= 400 && status < 500) {
            return new SyncOutcome.Refused(status, code.isEmpty() ? detail : code + ": " + detail);
        }
        return new SyncOutcome.Unavailable("payment-service answered " + status + (code.isEmpty() ? "" : " " + code)
                + ": " + detail);
    }

    /**
     * Where the sync broke: the problem's {@code stage} when payment-service says it; otherwise a cancel named in the
     * message (a refused or unreachable cancel names itself); otherwise unknown, and the settler asks the PG.
     */
    static FailureStage stage(JsonNode body, String detail) {
        String stage = body.path("stage").asText("").toUpperCase(Locale.ROOT);
        if (stage.equals("CANCEL") || stage.equals("COMPENSATION")) {
            return FailureStage.CANCEL;
        }
        if (stage.equals("STATUS_QUERY") || stage.equals("QUERY")) {
            return FailureStage.STATUS_QUERY;
        }
        return detail.toLowerCase(Locale.ROOT).contains("cancel") ? FailureStage.CANCEL : FailureStage.UNKNOWN;
    }

    private JsonNode parse(String text) {
        try {
            JsonNode node = text == null || text.isBlank() ? null : json.readTree(text);
            return node == null ? json.createObjectNode() : node;
        } catch (JsonProcessingException e) {
            return json.createObjectNode();
        }
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 300 ? String.valueOf(text) : text.substring(0, 300) + "...";
    }
}
