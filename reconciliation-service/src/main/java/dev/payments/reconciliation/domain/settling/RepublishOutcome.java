package dev.payments.reconciliation.domain.settling;

import java.util.Locale;
import java.util.Objects;

/**
 * How one call of payment-service's republish ended, as the repair of a lost outcome sees it.
 *
 * @param events the events payment-service published again (when {@link Result#REPUBLISHED})
 * @param detail what payment-service (or the failed call) said, for the record
 */
public record RepublishOutcome(Result result, int events, String detail) {

    public enum Result {
        /** The payment's events are on their way again; a consumer that lost one applies it now. */
        REPUBLISHED,
        /** payment-service has no final outcome for the payment (409 PAYMENT_NOT_FINAL): the settler syncs it. */
        NOT_FINAL,
        /** Its events are past the outbox's retention (409 EVENTS_NOT_RETAINED): a human must repair it. */
        NOT_RETAINED,
        /** payment-service does not know the payment (404). */
        NOT_FOUND,
        /** payment-service could not be reached, timed out, or failed on its own: try the others later. */
        UNAVAILABLE,
        /** payment-service refused the call itself (401, 403, another 4xx): our configuration is wrong. */
        REFUSED;

        public String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RepublishOutcome {
        Objects.requireNonNull(result, "result");
    }

    public static RepublishOutcome republished(int events) {
        return new RepublishOutcome(Result.REPUBLISHED, events, null);
    }

    public static RepublishOutcome of(Result result, String detail) {
        return new RepublishOutcome(result, 0, detail);
    }

    /** payment-service itself cannot help now: the rest of the batch waits for the next cycle. */
    public boolean stopsTheBatch() {
        return result == Result.UNAVAILABLE || result == Result.REFUSED;
    }
}
