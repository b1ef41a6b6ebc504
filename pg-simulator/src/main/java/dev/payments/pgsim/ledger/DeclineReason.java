package dev.payments.pgsim.ledger;

/**
 * Card declines the simulator can produce, with Toss's HTTP status for each. A decline is a
 * business answer (the PG is healthy), so clients must not retry it or count it as a PG failure.
 */
public enum DeclineReason {
    REJECT_CARD_PAYMENT(403, "Payment declined: limit exceeded or insufficient balance."),
    REJECT_CARD_COMPANY(403, "The card company rejected the payment."),
    FDS_ERROR(403, "Blocked by the fraud detection system."),
    EXCEED_MAX_CARD_LIMIT(400, "The card limit is exceeded."),
    EXCEED_MAX_DAILY_PAYMENT_COUNT(400, "The daily payment count is exceeded."),
    EXCEED_MAX_PAYMENT_AMOUNT(400, "The maximum payment amount is exceeded."),
    INVALID_CARD_NUMBER(400, "The card number is invalid."),
    INVALID_CARD_EXPIRATION(400, "The card expiration date is invalid."),
    INVALID_STOPPED_CARD(400, "The card is suspended."),
    INVALID_CARD_LOST_OR_STOLEN(400, "The card is reported lost or stolen."),
    CARD_PROCESSING_ERROR(400, "The card company could not process the payment.");

    private final int httpStatus;
    private final String message;

    DeclineReason(int httpStatus, String message) {
        this.httpStatus = httpStatus;
        this.message = message;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String message() {
        return message;
    }
}
