package dev.payments.pgsim.api;

import dev.payments.pgsim.http.Reply;

/** Gateway errors that are not card declines (those are {@link dev.payments.pgsim.ledger.DeclineReason}). */
enum ApiError {
    INVALID_REQUEST(400, "The request is invalid."),
    ALREADY_PROCESSED_PAYMENT(400, "The payment has already been processed."),
    NOT_MATCHES_ORDER_ID(400, "The paymentKey belongs to another order."),
    NOT_CANCELABLE_PAYMENT(400, "The payment cannot be cancelled."),
    ALREADY_CANCELED_PAYMENT(400, "The payment has already been cancelled."),
    UNAUTHORIZED_KEY(401, "Unauthorized secret key."),
    FORBIDDEN_REQUEST(403, "The request is not allowed for this merchant."),
    NOT_CANCELABLE_AMOUNT(403, "The amount cannot be cancelled."),
    FORBIDDEN_CONSECUTIVE_REQUEST(403, "Consecutive requests are not allowed; try again shortly."),
    NOT_FOUND_PAYMENT(404, "The payment does not exist."),
    NOT_FOUND_BILLING_KEY(404, "No such billing key for this customer."),
    NOT_FOUND(404, "No such endpoint."),
    METHOD_NOT_ALLOWED(405, "Method not allowed."),
    IDEMPOTENT_REQUEST_PROCESSING(409, "A request with this Idempotency-Key is still being processed."),
    INVALID_IDEMPOTENCY_KEY(422, "The Idempotency-Key was already used with a different request body."),
    TOO_MANY_REQUESTS(429, "Too many requests; slow down."),
    FAILED_INTERNAL_SYSTEM_PROCESSING(500, "Internal system processing failed."),
    BAD_GATEWAY(502, "The card company did not answer in time."),
    SERVICE_UNAVAILABLE(503, "The payment service is temporarily unavailable."),
    GATEWAY_TIMEOUT(504, "The card company timed out.");

    private final int status;
    private final String message;

    ApiError(int status, String message) {
        this.status = status;
        this.message = message;
    }

    Reply reply() {
        return Reply.error(status, name(), message);
    }

    Reply reply(String detail) {
        return Reply.error(status, name(), message + " " + detail);
    }

    /**
     * The error an injected {@code errorStatus} answers with. On a cancel, 409 is "another cancel of this payment is
     * being processed", which Toss answers with FORBIDDEN_CONSECUTIVE_REQUEST.
     */
    static ApiError injected(int status, dev.payments.pgsim.fault.Operation operation) {
        if (status == 409 && operation == dev.payments.pgsim.fault.Operation.CANCEL) {
            return FORBIDDEN_CONSECUTIVE_REQUEST;
        }
        return injected(status);
    }

    /** The error an injected {@code errorStatus} answers with. */
    static ApiError injected(int status) {
        return switch (status) {
            case 401 -> UNAUTHORIZED_KEY;
            case 403 -> FORBIDDEN_REQUEST;
            case 409 -> IDEMPOTENT_REQUEST_PROCESSING;
            case 429 -> TOO_MANY_REQUESTS;
            case 502 -> BAD_GATEWAY;
            case 503 -> SERVICE_UNAVAILABLE;
            case 504 -> GATEWAY_TIMEOUT;
            default -> FAILED_INTERNAL_SYSTEM_PROCESSING;
        };
    }
}
