package dev.payments.payment.application;

import dev.payments.payment.domain.Verdict;

import java.time.Duration;

/**
 * How a confirm ended, before it becomes HTTP ({@code PaymentController}) and a metric label ({@link ApprovalMetrics}):
 * each mapping is made once, there.
 */
public sealed interface ConfirmResult {

    /** An answer with a receipt: what the customer is told. */
    sealed interface Told extends ConfirmResult {
        PaymentReceipt receipt();
    }

    /**
     * This request asked the PG and recorded what it meant ({@code verdict}; when a callback or a sync settled the
     * payment first, the verdict its state amounts to).
     */
    record Answered(PaymentReceipt receipt, Verdict verdict) implements Told {
    }

    /** A repeat of a request: the answer stored for it, the payment's state if settled since, or still in flight. */
    record Replayed(PaymentReceipt receipt) implements Told {
    }

    /**
     * The PG was asked and its answer could not be written: PENDING to the customer, the payment stays REQUESTED and
     * reconciliation settles it.
     */
    record Unrecorded(PaymentReceipt receipt) implements Told {
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
