package dev.payments.payment.adapter.out.pg;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.domain.PgCancel;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * HTTP to a Toss-v1-shaped PG. Knows nothing of retries or breakers; it only tells apart the ways a call can end,
 * because they mean different things for the money: no connection (nothing happened), a 4xx (the PG said no),
 * a 5xx (the PG failed), and no answer (anything may have happened).
 */
public class TossPgClient {

    /** Toss's limit for {@code cancelReason}; the simulator enforces the same. */
    static final int MAX_CANCEL_REASON = 200;

    private final HttpClient http;
    private final URI baseUrl;
    private final String authorization;
    private final ObjectMapper json;

    public TossPgClient(PgClientProperties properties, ObjectMapper json) {
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.connectTimeout())
                .build();
        this.baseUrl = properties.baseUrl();
        this.authorization = "Basic " + Base64.getEncoder()
                .encodeToString((properties.secretKey() + ":").getBytes(StandardCharsets.UTF_8));
        this.json = json;
    }

    /** The PG's payment object (fields as in Toss v1; unknown fields ignored). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PgPayment(String paymentKey, String orderId, String status, Long totalAmount,
                            OffsetDateTime approvedAt, String lastTransactionKey, List<PgCancelBody> cancels) {

        public PgPayment {
            cancels = cancels == null ? List.of() : List.copyOf(cancels);
        }

        /** What the PG says, in the domain's words: nothing is decided here. */
        public PgStatus toStatus() {
            return new PgStatus(PgState.parse(status), paymentKey, orderId, totalAmount, lastTransactionKey,
                    approvedAt == null ? null : approvedAt.toInstant(),
                    cancels.stream().map(c -> new PgCancel(c.transactionKey(),
                            c.cancelAmount() == null ? 0 : c.cancelAmount(), c.cancelReason(),
                            c.canceledAt() == null ? null : c.canceledAt().toInstant())).toList());
        }
    }

    /** One element of Toss's {@code cancels[]}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PgCancelBody(String transactionKey, Long cancelAmount, String cancelReason,
                               OffsetDateTime canceledAt) {
    }

    /** A 4xx: the PG is healthy and said no. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PgError(String code, String message) {
    }

    /** What a confirm, a billing charge or a partial cancel returned when the PG answered: its payment after it, or a 4xx. */
    public sealed interface PgAnswer {
        record Accepted(PgPayment payment) implements PgAnswer {
        }

        record Refused(int status, PgError error) implements PgAnswer {
        }
    }

    public PgAnswer confirm(String paymentKey, String orderId, long amount, String idempotencyKey, Duration timeout) {
        return answer(request("/v1/payments/confirm", timeout)
                .header("Idempotency-Key", idempotencyKey)
                .POST(body(Map.of("paymentKey", paymentKey, "orderId", orderId, "amount", amount)))
                .build());
    }

    /**
     * Charges a billing key (Toss's automatic payment) for one order; answered like a confirm, because to the PG it is
     * one. The customerKey must be the one the key was issued to.
     */
    public PgAnswer chargeBillingKey(String billingKey, String customerKey, String orderId, long amount,
                                     String orderName, String idempotencyKey, Duration timeout) {
        return answer(request("/v1/billing/" + URLEncoder.encode(billingKey, StandardCharsets.UTF_8), timeout)
                .header("Idempotency-Key", idempotencyKey)
                .POST(body(Map.of("customerKey", customerKey, "orderId", orderId, "amount", amount,
                        "orderName", orderName)))
                .build());
    }

    private PgAnswer answer(HttpRequest request) {
        HttpResponse<String> response = send(request);
        if (response.statusCode() / 100 == 2) {
            return new PgAnswer.Accepted(read(response.body(), PgPayment.class));
        }
        if (response.statusCode() / 100 == 4) {
            return new PgAnswer.Refused(response.statusCode(), readError(response));
        }
        throw serverError(response);
    }

    /**
     * The payment with this key as the PG sees it; empty if the PG never recorded one. By key, not by order: the
     * order's payment at the PG may be another attempt's.
     */
    public Optional<PgPayment> findByPaymentKey(String paymentKey, Duration timeout) {
        HttpRequest request = request("/v1/payments/" + URLEncoder.encode(paymentKey, StandardCharsets.UTF_8), timeout)
                .GET().build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        if (response.statusCode() / 100 == 2) {
            return Optional.of(read(response.body(), PgPayment.class));
        }
        throw serverError(response);
    }

    /**
     * Cancels at the PG (idempotent there). A 4xx here is a bug or a state mismatch, reported as such. The reason is
     * cut to the PG's {@value #MAX_CANCEL_REASON} characters: a refund must not fail for the length of its note.
     */
    public PgPayment cancel(String paymentKey, String reason, Duration timeout) {
        PgAnswer answer = answer(cancelRequest(paymentKey, "cancel-" + paymentKey, reason, null, timeout));
        if (answer instanceof PgAnswer.Refused refused) {
            throw new IllegalStateException("PG refused to cancel " + paymentKey + ": " + refused.error().code() + " "
                    + refused.error().message());
        }
        return ((PgAnswer.Accepted) answer).payment();
    }

    /**
     * A partial cancel of {@code amount} under the refund's own Idempotency-Key: the PG books it once however often
     * it arrives. A 5xx is thrown like any failure after sending (the PG may have booked it).
     */
    public PgAnswer refund(String paymentKey, long amount, String reason, String idempotencyKey, Duration timeout) {
        return answer(cancelRequest(paymentKey, idempotencyKey, reason, amount, timeout));
    }

    private HttpRequest cancelRequest(String paymentKey, String idempotencyKey, String reason, Long amount,
                                      Duration timeout) {
        String cancelReason = reason.length() <= MAX_CANCEL_REASON ? reason : reason.substring(0, MAX_CANCEL_REASON);
        Map<String, Object> fields = amount == null ? Map.of("cancelReason", cancelReason)
                : Map.of("cancelReason", cancelReason, "cancelAmount", amount);
        return request("/v1/payments/" + URLEncoder.encode(paymentKey, StandardCharsets.UTF_8) + "/cancel", timeout)
                .header("Idempotency-Key", idempotencyKey)
                .POST(body(fields))
                .build();
    }

    private HttpRequest.Builder request(String path, Duration timeout) {
        return HttpRequest.newBuilder(baseUrl.resolve(path))
                .timeout(timeout)
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json");
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new PgConnectException("No connection to the PG at " + request.uri(), e);
        } catch (HttpTimeoutException e) {
            throw new PgAnswerLostException("No answer from the PG within " + request.timeout().orElse(null), true, e);
        } catch (IOException e) {
            // Reset or closed after the request may have been written: we cannot know whether the PG acted on it.
            throw new PgAnswerLostException("Connection to the PG dropped: " + e, false, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PgAnswerLostException("Interrupted while waiting for the PG", false, e);
        }
    }

    private PgServerErrorException serverError(HttpResponse<String> response) {
        PgError error = readError(response);
        return new PgServerErrorException(response.statusCode(), error.code(), error.message());
    }

    private PgError readError(HttpResponse<String> response) {
        try {
            return json.readValue(response.body(), PgError.class);
        } catch (JsonProcessingException e) {
            return new PgError("HTTP_" + response.statusCode(), response.body());
        }
    }

    private <T> T read(String body, Class<T> type) {
        try {
            return json.readValue(body, type);
        } catch (JsonProcessingException e) {
            // An unreadable 2xx: the PG did something; treat the answer as lost rather than guess.
            throw new PgAnswerLostException("Unreadable PG answer: " + e.getOriginalMessage(), false, e);
        }
    }

    private HttpRequest.BodyPublisher body(Map<String, Object> fields) {
        try {
            return HttpRequest.BodyPublishers.ofString(json.writeValueAsString(fields));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
