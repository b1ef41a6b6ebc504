package dev.payments.payment.application;

import java.time.Duration;

/** How a confirm ended, before it becomes HTTP. */
public sealed interface ConfirmResult {

    /** The PG was asked (now or by the first request with this key); the receipt says what the customer is told. */
    record Answered(PaymentReceipt receipt, boolean replayed) implements ConfirmResult {
    }

    /** The first request with this key is still in flight. */
    record InFlight(PaymentReceipt receipt) implements ConfirmResult {
    }

    /** Refused before any money could move; nothing was written. */
    record Refused(Refusal refusal, String detail, Duration retryAfter) implements ConfirmResult {

        public Refused(Refusal refusal, String detail) {
            this(refusal, detail, null);
        }
    }

    enum Refusal {
        PG_UNAVAILABLE,
        RATE_LIMITED,
        ORDER_NOT_FOUND,
        ORDER_ALREADY_PAID,
        ORDER_NOT_PAYABLE,
        PAYMENT_IN_PROGRESS,
        /** The PG payment key belongs to an earlier payment that may have reached the PG. */
        PAYMENT_KEY_USED,
        IDEMPOTENCY_KEY_REUSED,
        AMOUNT_MISMATCH,
        /** The database failed before the PG was called: nothing happened, try again. */
        DB_UNAVAILABLE
    }
}
