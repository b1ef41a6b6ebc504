package dev.payments.pgsim.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.payments.pgsim.http.Json;
import java.io.IOException;
import java.util.regex.Pattern;

/** Gateway request bodies, parsed leniently (unknown fields ignored, like Toss) and validated like Toss. */
final class Requests {

    /** Toss's rule for orderId: 6-64 characters of letters, digits, '-' and '_'. */
    private static final Pattern ORDER_ID = Pattern.compile("[A-Za-z0-9_-]{6,64}");
    private static final int MAX_KEY_LENGTH = 200;
    static final int MAX_IDEMPOTENCY_KEY_LENGTH = 300;

    private Requests() {
    }

    record ConfirmRequest(String paymentKey, String orderId, Long amount) {

        /** What "the same body" means for an Idempotency-Key: the same three fields. */
        String fingerprint() {
            return paymentKey + '\u0000' + orderId + '\u0000' + amount;
        }
    }

    record CancelRequest(String cancelReason, Long cancelAmount) {
    }

    record BillingIssueRequest(String customerKey, String authKey) {
    }

    record BillingChargeRequest(String customerKey, String orderId, Long amount, String orderName) {

        /** What "the same body" means for an Idempotency-Key of a billing charge. */
        String fingerprint(String billingKey) {
            return billingKey + '\u0000' + customerKey + '\u0000' + orderId + '\u0000' + amount;
        }
    }

    static ConfirmRequest confirm(byte[] body) {
        ConfirmRequest request = parse(body, ConfirmRequest.class);
        requireKey("paymentKey", request.paymentKey());
        requireOrderIdAndAmount(request.orderId(), request.amount());
        return request;
    }

    private static void requireOrderIdAndAmount(String orderId, Long amount) {
        if (orderId == null || !ORDER_ID.matcher(orderId).matches()) {
            throw new InvalidRequestException("orderId must be 6-64 characters of letters, digits, '-' or '_'");
        }
        if (amount == null || amount <= 0) {
            throw new InvalidRequestException("amount must be a positive number of KRW");
        }
    }

    static BillingIssueRequest billingIssue(byte[] body) {
        BillingIssueRequest request = parse(body, BillingIssueRequest.class);
        requireKey("customerKey", request.customerKey());
        return request;
    }

    static BillingChargeRequest billingCharge(byte[] body) {
        BillingChargeRequest request = parse(body, BillingChargeRequest.class);
        requireKey("customerKey", request.customerKey());
        requireOrderIdAndAmount(request.orderId(), request.amount());
        return request;
    }

    static CancelRequest cancel(byte[] body) {
        CancelRequest request = parse(body, CancelRequest.class);
        if (request.cancelReason() == null || request.cancelReason().isBlank() || request.cancelReason().length() > 200) {
            throw new InvalidRequestException("cancelReason is required (at most 200 characters)");
        }
        if (request.cancelAmount() != null && request.cancelAmount() <= 0) {
            throw new InvalidRequestException("cancelAmount must be a positive number of KRW, or absent to cancel everything left");
        }
        return request;
    }

    static String idempotencyKey(String header) {
        if (header != null && (header.isBlank() || header.length() > MAX_IDEMPOTENCY_KEY_LENGTH)) {
            throw new InvalidRequestException("Idempotency-Key must be 1-" + MAX_IDEMPOTENCY_KEY_LENGTH + " characters");
        }
        return header;
    }

    static void requireKey(String name, String value) {
        if (value == null || value.isBlank() || value.length() > MAX_KEY_LENGTH) {
            throw new InvalidRequestException(name + " is required (at most " + MAX_KEY_LENGTH + " characters)");
        }
    }

    private static <T> T parse(byte[] body, Class<T> type) {
        if (body.length == 0) {
            throw new InvalidRequestException("a JSON body is required");
        }
        try {
            return Json.readLenient(body, type);
        } catch (JsonProcessingException e) {
            throw new InvalidRequestException("malformed JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidRequestException("unreadable body: " + e.getMessage());
        }
    }
}
