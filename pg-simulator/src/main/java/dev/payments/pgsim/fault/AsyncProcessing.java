package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.pgsim.ledger.DeclineReason;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Asynchronous confirm (field report 001): the confirm answers 200 IN_PROGRESS, and after
 * {@code delay} the payment becomes DONE (with probability {@code successRate}) or ABORTED with a
 * decline drawn from {@code declines} (code -> weight); the outcome is POSTed to the callback URL
 * ({@code callbackUrl} here, else the simulator's configured one, else no callback).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AsyncProcessing(double successRate, Latency delay, Map<DeclineReason, Integer> declines, String callbackUrl) {

    /** 001: "processing delay 1 s - 5 s; success 70 %, limit exceeded 20 %, invalid card 10 %". */
    public static final Map<DeclineReason, Integer> FIELD_REPORT_001_DECLINES =
            Map.of(DeclineReason.EXCEED_MAX_CARD_LIMIT, 2, DeclineReason.INVALID_CARD_NUMBER, 1);

    public AsyncProcessing {
        Rates.check("async.successRate", successRate);
        if (delay == null) {
            throw new IllegalArgumentException("async.delay is required, e.g. {\"minMs\":1000,\"maxMs\":5000}");
        }
        if (declines == null || declines.isEmpty()) {
            declines = FIELD_REPORT_001_DECLINES;
        }
        if (declines.values().stream().anyMatch(w -> w == null || w <= 0)) {
            throw new IllegalArgumentException("async.declines weights must be positive integers");
        }
        // EnumMap iterates in declaration order, so a seeded draw picks the same code every replay.
        declines = Collections.unmodifiableMap(new EnumMap<>(declines));
    }

    public static AsyncProcessing fieldReport001() {
        return new AsyncProcessing(0.7, Latency.uniform(1000, 5000), FIELD_REPORT_001_DECLINES, null);
    }

    public AsyncProcessing withCallbackUrl(String url) {
        return new AsyncProcessing(successRate, delay, declines, url);
    }

    /** Picks a decline by weight, iterating codes in declaration order. */
    DeclineReason pickDecline(double uniform) {
        int total = declines.values().stream().mapToInt(Integer::intValue).sum();
        double target = uniform * total;
        int running = 0;
        DeclineReason last = null;
        for (DeclineReason reason : DeclineReason.values()) {
            Integer weight = declines.get(reason);
            if (weight == null) {
                continue;
            }
            running += weight;
            last = reason;
            if (target < running) {
                return reason;
            }
        }
        return last;
    }
}
