package dev.payments.drills.load;

import dev.payments.localstack.http.Http;
import dev.payments.localstack.identity.Tokens;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Places orders and confirms them like a browser's server would: one Idempotency-Key per order, the member's own
 * access token on every call (signed in once per member at the issuer, then reused: {@link Tokens}).
 */
public final class ApprovalClient {

    /** Payment-service learns orders from Kafka; a 404 right after placing one is retried for this long. */
    private static final Duration NOT_FOUND_PATIENCE = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final Http http;
    private final String orderUrl;
    private final String paymentUrl;
    private final Tokens tokens;

    public ApprovalClient(Http http, String orderUrl, String paymentUrl, Tokens tokens) {
        this.http = http;
        this.orderUrl = orderUrl;
        this.paymentUrl = paymentUrl;
        this.tokens = tokens;
    }

    /** @return the order, or null if order-service refused or did not answer */
    public PreparedOrder placeOrder(int index, String memberId, long amount) {
        Http.Response created = http.post(orderUrl + "/api/orders", Http.bearer(tokens.member(memberId)),
                "{\"amount\":" + amount
                        + ",\"currency\":\"KRW\",\"orderName\":\"drill order " + index + "\"}", REQUEST_TIMEOUT);
        if (created.status() != 201) {
            return null;
        }
        return new PreparedOrder(index, created.json().path("orderId").asText(), memberId, amount);
    }

    public Attempt confirm(PreparedOrder order, String phase, long intendedNanos) {
        String body = "{\"orderId\":\"" + order.orderId() + "\",\"paymentKey\":\"pk-" + order.orderId()
                + "\",\"amount\":" + order.amount() + "}";
        Map<String, String> headers = new java.util.HashMap<>(Http.bearer(tokens.member(order.memberId())));
        headers.put("Idempotency-Key", "drill-" + order.orderId());
        long giveUp = System.nanoTime() + NOT_FOUND_PATIENCE.toNanos();
        int retries = 0;
        Http.Response response = http.post(paymentUrl + "/api/payments/confirm", headers, body, REQUEST_TIMEOUT);
        while (response.status() == 404 && System.nanoTime() < giveUp) {
            retries++;
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
            response = http.post(paymentUrl + "/api/payments/confirm", headers, body, REQUEST_TIMEOUT);
        }
        long end = System.nanoTime();
        JsonNode json = response.json();
        String paymentId = json.path("paymentId").asText(null);
        return new Attempt(order, phase, intendedNanos, end, response.status(), outcome(response, json), paymentId,
                retries);
    }

    static String outcome(Http.Response response, JsonNode json) {
        if (response.status() == 0) {
            return response.error();
        }
        return switch (response.status()) {
            case 200 -> "approved";
            case 202 -> "pending";
            case 422 -> "declined";
            case 502 -> "failed";
            case 503 -> switch (json.path("code").asText()) {
                case "PG_UNAVAILABLE" -> "pg_unavailable";
                case "OVERLOADED" -> "overloaded";
                default -> "unavailable";
            };
            case 429 -> "rate_limited";
            case 409 -> "conflict";
            case 404 -> "order_not_found";
            case 400 -> "bad_request";
            default -> "http_" + response.status();
        };
    }
}
