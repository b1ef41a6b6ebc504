package dev.payments.reconciliation.adapter.out.payment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.settling.OutcomeRepublisher;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.RepublishOutcome;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Optional;

/**
 * {@code POST /api/payments/{paymentId}/sync} (and {@code /republish}) on payment-service, with this service's own bearer token (client
 * credentials, scope {@code payments:sync}: {@link ServiceTokens}). Every way the call can end
 * becomes a {@link SyncOutcome}; nothing is thrown. The read timeout sits above payment-service's own worst case (a
 * status query and a compensating cancel, each retried), so a slow but successful sync is not counted as a failure.
 */
public class HttpPaymentSync implements PaymentSync, OutcomeRepublisher {

    private final RestClient http;
    private final ServiceTokens tokens;
    private final ObjectMapper json;

    /**
     * @param http Boot's builder (observed: a metric and a span per call) with payment-service's base URL and the
     *             connect and read timeouts
     */
    public HttpPaymentSync(RestClient.Builder http, ServiceTokens tokens, ObjectMapper json) {
        this.http = http.build();
        this.tokens = tokens;
        this.json = json;
    }

    /** What payment-service answered, read whatever the status. */
    private record Answer(int status, String body) {
    }

    @Override
    public SyncOutcome sync(PaymentId paymentId) {
        String token;
        try {
            token = tokens.current();
        } catch (RuntimeException e) {
            // Nothing was asked of payment-service: like an unreachable service, the cycle backs off and tries again.
            return new SyncOutcome.Unavailable("no access token for payment-service from the issuer: " + e.getMessage());
        }
        Answer answer;
        try {
            answer = call("/api/payments/{paymentId}/sync", paymentId, token);
        } catch (RestClientException e) {
            // No answer (refused, timed out, dropped, interrupted: the JDK client keeps the thread's interrupt flag).
            return new SyncOutcome.Unavailable("payment-service not reachable: " + e.getMessage());
        }
        return outcome(answer);
    }

    /**
     * {@code POST /api/payments/{paymentId}/republish} (scope {@code payments:sync}): payment-service publishes a
     * settled payment's events again (same ids), for an order that lost its outcome.
     */
    @Override
    public RepublishOutcome republish(PaymentId paymentId) {
        Answer answer;
        try {
            answer = call("/api/payments/{paymentId}/republish", paymentId, tokens.current());
        } catch (RestClientException e) {
            return RepublishOutcome.of(RepublishOutcome.Result.UNAVAILABLE,
                    "payment-service not reachable: " + e.getMessage());
        } catch (RuntimeException e) {
            return RepublishOutcome.of(RepublishOutcome.Result.UNAVAILABLE,
                    "no access token for payment-service from the issuer: " + e.getMessage());
        }
        JsonNode body = parse(answer.body());
        String code = body.path("code").asText("");
        String detail = body.path("detail").asText(abbreviate(answer.body()));
        int status = answer.status();
        if (status == 200) {
            return RepublishOutcome.republished(body.path("events").size());
        }
        if (status == 409 && "PAYMENT_NOT_FINAL".equals(code)) {
            return RepublishOutcome.of(RepublishOutcome.Result.NOT_FINAL, detail);
        }
        if (status == 409 && "EVENTS_NOT_RETAINED".equals(code)) {
            return RepublishOutcome.of(RepublishOutcome.Result.NOT_RETAINED, detail);
        }
        if (status == 404 && "PAYMENT_NOT_FOUND".equals(code)) {
            return RepublishOutcome.of(RepublishOutcome.Result.NOT_FOUND, detail);
        }
        if (status >= 400 && status < 500) {
            return RepublishOutcome.of(RepublishOutcome.Result.REFUSED, status + " " + code + ": " + detail);
        }
        return RepublishOutcome.of(RepublishOutcome.Result.UNAVAILABLE, "payment-service answered " + status
                + (code.isEmpty() ? "" : " " + code) + ": " + detail);
    }

    /** One call; a 401 drops the cached token, so the next call fetches a new one. */
    private Answer call(String path, PaymentId paymentId, String token) {
        Answer answer = http.post().uri(path, paymentId.value())
                .headers(headers -> headers.setBearerAuth(token))
                .accept(MediaType.APPLICATION_JSON, MediaType.APPLICATION_PROBLEM_JSON)
                .exchange((request, response) -> new Answer(response.getStatusCode().value(),
                        new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8)));
        if (answer.status() == 401) {
            tokens.forget();
        }
        return answer;
    }

    private SyncOutcome outcome(Answer answer) {
        int status = answer.status();
        JsonNode body = parse(answer.body());
        String code = body.path("code").asText("");
        String detail = body.path("detail").asText(abbreviate(answer.body()));
        if (status == 200) {
            String paymentStatus = body.path("payment").path("status").asText("");
            try {
                String retryAt = body.path("retryAt").asText(null);
                return new SyncOutcome.Answered(PaymentStatus.valueOf(paymentStatus),
                        body.path("pgState").asText(null), body.path("action").asText(null),
                        retryAt == null ? null : Instant.parse(retryAt));
            } catch (IllegalArgumentException | DateTimeParseException e) {
                return new SyncOutcome.Unavailable("unreadable sync answer (payment status '" + paymentStatus + "'): "
                        + abbreviate(answer.body()));
            }
        }
        if (status == 404 && "PAYMENT_NOT_FOUND".equals(code)) {
            return new SyncOutcome.NotFound(detail);
        }
        if (status == 502 && "PG_SYNC_FAILED".equals(code)) {
            return stage(body).<SyncOutcome>map(stage -> new SyncOutcome.PgFailed(stage, detail))
                    .orElseGet(() -> new SyncOutcome.Unavailable("payment-service's 502 did not say where the sync broke "
                            + "(stage '" + body.path("stage").asText("") + "'): " + detail));
        }
        if (status >= 400 && status < 500) {
            return new SyncOutcome.Refused(status, code.isEmpty() ? detail : code + ": " + detail);
        }
        return new SyncOutcome.Unavailable("payment-service answered " + status + (code.isEmpty() ? "" : " " + code)
                + ": " + detail);
    }

    /**
     * Where the sync broke, as payment-service states it on every 502 {@code PG_SYNC_FAILED}; empty if it does not
     * (then it is read like any unexplained 5xx: an outage, never a failed cancel).
     */
    static Optional<FailureStage> stage(JsonNode body) {
        return Arrays.stream(FailureStage.values()).filter(stage -> stage.name().equals(body.path("stage").asText()))
                .findFirst();
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
