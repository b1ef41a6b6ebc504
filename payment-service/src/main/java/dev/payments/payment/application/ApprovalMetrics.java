package dev.payments.payment.application;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code payment_approval_total{outcome}}. Every label is registered at zero at start-up: field report 000's alert
 * missed 50 breaker rejections because the label first appeared with them and {@code increase()} had no prior sample.
 */
public class ApprovalMetrics {

    public enum Outcome {
        APPROVED, DECLINED,
        /** Never reached the PG (connect failures): known that no money moved. */
        PG_FAILED,
        /** Confirm timed out and the status query did not settle it: UNKNOWN. */
        PG_TIMEOUT,
        /** Answer lost otherwise (reset, 5xx) and not settled by the status query: UNKNOWN. */
        UNKNOWN,
        /**
         * The PG accepted the confirm for asynchronous processing (001): PENDING until its signed callback. A healthy
         * asynchronous PG, so not a failure for the alert.
         */
        ASYNC_ACCEPTED,
        /**
         * The PG refused our credentials (401/403 that is not a card decline): our configuration is wrong. FAILED,
         * nothing charged, a breaker failure, and its own alert (deploy/prometheus/rules/approval.yml).
         */
        PG_AUTH_FAILED,
        /** The PG answered about another amount, order or payment key: UNKNOWN, never APPROVED; its own alert. */
        PG_MISMATCH,
        /** Breaker open or bulkhead full: refused before any work. */
        PG_UNAVAILABLE,
        /**
         * The database failed the request: before the PG call nothing happened (503 DB_UNAVAILABLE); after it, the
         * payment stays REQUESTED for reconciliation (202 PENDING).
         */
        DB_FAILED,
        RATE_LIMITED,
        /** Client errors: unknown order, already paid, key reuse, amount mismatch. */
        REJECTED,
        /** A repeated request answered from the idempotency record. */
        REPLAYED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);

    public ApprovalMetrics(MeterRegistry meters) {
        for (Outcome outcome : Outcome.values()) {
            counters.put(outcome, Counter.builder("payment.approval")
                    .description("Approval requests by how they ended")
                    .tag("outcome", outcome.label())
                    .register(meters));
        }
    }

    /** Counts a confirm under the one label its result maps to. */
    public void record(ConfirmResult result) {
        counters.get(outcomeOf(result)).increment();
    }

    static Outcome outcomeOf(ConfirmResult result) {
        if (result instanceof ConfirmResult.Answered answered) {
            return switch (answered.verdict()) {
                case APPROVED -> Outcome.APPROVED;
                case DECLINED -> Outcome.DECLINED;
                case NOTHING_CHARGED -> Outcome.PG_FAILED;
                case CREDENTIALS_REJECTED -> Outcome.PG_AUTH_FAILED;
                case MISMATCH -> Outcome.PG_MISMATCH;
                case PROCESSING_ASYNC -> Outcome.ASYNC_ACCEPTED;
                case TIMED_OUT -> Outcome.PG_TIMEOUT;
                case UNDECIDED -> Outcome.UNKNOWN;
            };
        }
        if (result instanceof ConfirmResult.Replayed) {
            return Outcome.REPLAYED;
        }
        if (result instanceof ConfirmResult.Unrecorded) {
            return Outcome.DB_FAILED;
        }
        return switch (((ConfirmResult.Refused) result).refusal()) {
            case PG_UNAVAILABLE -> Outcome.PG_UNAVAILABLE;
            case RATE_LIMITED -> Outcome.RATE_LIMITED;
            case DB_UNAVAILABLE -> Outcome.DB_FAILED;
            case ORDER_NOT_FOUND, ORDER_ALREADY_PAID, ORDER_NOT_PAYABLE, PAYMENT_IN_PROGRESS, PAYMENT_KEY_USED,
                    IDEMPOTENCY_KEY_REUSED, AMOUNT_MISMATCH -> Outcome.REJECTED;
        };
    }
}
