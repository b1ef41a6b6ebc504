package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;

/**
 * The PG's front door takes a confirm and never answers it; its back end books the approval {@code afterMs} after
 * the client gave up (its connection closed, or the fault was cleared). Until then the PG has no record of it:
 * status queries answer NOT_FOUND. Then the payment is DONE with an APPROVE on the books and, when a callback URL is
 * known ({@code callbackUrl} here, else the simulator's), the outcome is POSTed to it.
 *
 * @param rate the share of confirms treated this way
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LateBooking(double rate, long afterMs, String callbackUrl) {

    public LateBooking {
        Rates.check("lateBooking.rate", rate);
        if (afterMs < 0) {
            throw new IllegalArgumentException("lateBooking.afterMs must not be negative, got " + afterMs);
        }
    }

    public static LateBooking after(Duration delay) {
        return new LateBooking(1.0, delay.toMillis(), null);
    }

    public LateBooking withCallbackUrl(String url) {
        return new LateBooking(rate, afterMs, url);
    }

    public Duration delay() {
        return Duration.ofMillis(afterMs);
    }
}
