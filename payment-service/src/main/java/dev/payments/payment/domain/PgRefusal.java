package dev.payments.payment.domain;

import java.util.Set;

/**
 * A 4xx answer to a confirm, classified by its code. Only the card and issuer decline codes are declines (an
 * allow-list, as in Toss's error table, docs.tosspayments.com/reference/error-codes); a 401/403 that is not one of
 * them is our own configuration failing; everything else (409 "this key is still in progress", 408, 429, a refusal
 * we do not know) says nothing certain about the money, so the PG is asked.
 */
public record PgRefusal(int httpStatus, String code, String message) {

    public enum Kind {
        /** The card company or the PG's risk check said no: nothing charged, the PG is healthy. */
        DECLINE,
        /** The PG refused our credentials: nothing processed; our configuration is wrong, not the card. */
        CREDENTIALS,
        /** No usable answer: the confirm may be in progress or booked; ask the PG. */
        UNCLEAR
    }

    private static final Set<String> DECLINES = Set.of(
            "REJECT_CARD_PAYMENT", "REJECT_CARD_COMPANY", "FDS_ERROR", "INVALID_REJECT_CARD",
            "EXCEED_MAX_CARD_LIMIT", "EXCEED_MAX_DAILY_PAYMENT_COUNT", "EXCEED_MAX_PAYMENT_AMOUNT",
            "EXCEED_MAX_CARD_INSTALLMENT_PLAN", "EXCEED_MAX_ONE_DAY_AMOUNT", "EXCEED_MAX_AMOUNT",
            "INVALID_CARD_NUMBER", "INVALID_CARD_EXPIRATION", "INVALID_STOPPED_CARD", "INVALID_CARD_LOST_OR_STOLEN",
            "INVALID_CARD_INSTALLMENT_PLAN", "INVALID_PASSWORD", "NOT_SUPPORTED_CARD_TYPE", "NOT_ALLOWED_POINT_USE",
            "BELOW_MINIMUM_AMOUNT", "CARD_PROCESSING_ERROR", "REJECT_ACCOUNT_PAYMENT", "REJECT_TOSSPAY_INVALID_ACCOUNT");
    private static final Set<String> CREDENTIALS_CODES = Set.of("UNAUTHORIZED_KEY", "INVALID_API_KEY", "FORBIDDEN_REQUEST");

    public Kind kind() {
        if (code != null && DECLINES.contains(code)) {
            return Kind.DECLINE;
        }
        if (httpStatus == 401 || httpStatus == 403 || (code != null && CREDENTIALS_CODES.contains(code))) {
            return Kind.CREDENTIALS;
        }
        return Kind.UNCLEAR;
    }

    /** The reason recorded on a payment the refusal left undecided, e.g. {@code PG_TOO_MANY_REQUESTS}. */
    public String asReason() {
        return "PG_" + (code == null || code.isBlank() ? "HTTP_" + httpStatus : code);
    }
}
