package dev.payments.pgsim.fault;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.pgsim.ledger.DeclineReason;
import java.util.Objects;
import java.util.Set;

/**
 * Everything that can go wrong for one operation scope, applied in this order per request:
 * connection fault, hang, latency, injected error ({@code errorRate}), late booking (confirm only),
 * decline ({@code declineRate}, confirm only), processing (sync, or {@code async}), lost answer
 * ({@code dropResponseRate}, only for 2xx answers the PG produced). Every random decision draws
 * from its own seeded stream.
 *
 * @param errorStatus 500, 502, 503 or 504 (nothing booked); 401, 403 or 429 (refused before any
 *                    work, nothing booked); 409 on confirm: answered at once while the confirm
 *                    is processed to the end, as a PG answers a key it is still working on; 409 on
 *                    cancel: "another cancel of this payment is being processed", answered as Toss
 *                    does (403 FORBIDDEN_CONSECUTIVE_REQUEST), nothing booked
 * @param lateBooking confirm only: never answered, booked later ({@link LateBooking})
 * @param amountDelta confirm only: the PG books and answers the requested amount plus this
 * @param seed null = the simulator's seed, or a random one (shown by {@code GET /admin/faults})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FaultSpec(
        Operation operation,
        Latency latency,
        double errorRate,
        int errorStatus,
        double declineRate,
        DeclineReason declineCode,
        double dropResponseRate,
        DropMode dropMode,
        boolean hang,
        ConnectionFault connectionFault,
        AsyncProcessing async,
        LateBooking lateBooking,
        long amountDelta,
        Long seed) {

    private static final Set<Integer> INJECTABLE_ERRORS = Set.of(401, 403, 409, 429, 500, 502, 503, 504);

    public FaultSpec {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(declineCode, "declineCode");
        Objects.requireNonNull(dropMode, "dropMode");
        Rates.check("errorRate", errorRate);
        Rates.check("declineRate", declineRate);
        Rates.check("dropResponseRate", dropResponseRate);
        if (!INJECTABLE_ERRORS.contains(errorStatus)) {
            throw new IllegalArgumentException(
                    "errorStatus must be one of 401, 403, 409, 429, 500, 502, 503, 504, got " + errorStatus);
        }
        if (errorStatus == 409 && operation != Operation.CONFIRM && operation != Operation.CANCEL) {
            throw new IllegalArgumentException(
                    "errorStatus 409 (a confirm or a cancel still in progress) needs operation 'confirm' or 'cancel'");
        }
        if (connectionFault != null && connectionFault.mode() == ConnectionFault.Mode.REFUSE && operation != Operation.ALL) {
            throw new IllegalArgumentException(
                    "connectionFault REFUSE closes the whole API port, so its operation must be 'all'");
        }
        boolean confirmScope = operation == Operation.CONFIRM || operation == Operation.ALL;
        if (!confirmScope && declineRate > 0) {
            throw new IllegalArgumentException("declineRate only applies to confirm (operation confirm or all)");
        }
        if (!confirmScope && async != null) {
            throw new IllegalArgumentException("async only applies to confirm (operation confirm or all)");
        }
        if (!confirmScope && (lateBooking != null || amountDelta != 0)) {
            throw new IllegalArgumentException(
                    "lateBooking and amountDelta only apply to confirm (operation confirm or all)");
        }
        if (lateBooking != null && async != null) {
            throw new IllegalArgumentException("lateBooking and async exclude each other: a confirm is either answered later or never");
        }
    }

    /** No fault at all for the operation. */
    public static FaultSpec none(Operation operation) {
        return new FaultSpec(operation, null, 0, 500, 0, DeclineReason.REJECT_CARD_PAYMENT, 0, DropMode.HANG, false, null,
                null, null, 0, null);
    }

    /**
     * Field report 001's simulator: requests succeed 60 % (the rest answer 500, nothing booked) after
     * 100-500 ms; accepted confirms finish after 1-5 s: DONE 70 %, EXCEED_MAX_CARD_LIMIT 20 %,
     * INVALID_CARD_NUMBER 10 %, reported by callback.
     */
    public static FaultSpec fieldReport001() {
        return none(Operation.CONFIRM)
                .withLatency(Latency.uniform(100, 500))
                .withErrorRate(0.4)
                .withAsync(AsyncProcessing.fieldReport001());
    }

    public FaultSpec withOperation(Operation value) {
        return new FaultSpec(value, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withLatency(Latency value) {
        return new FaultSpec(operation, value, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withErrorRate(double value) {
        return new FaultSpec(operation, latency, value, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withErrorStatus(int value) {
        return new FaultSpec(operation, latency, errorRate, value, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withDecline(double rate, DeclineReason code) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, rate, code, dropResponseRate, dropMode, hang,
                connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withDropResponse(double rate, DropMode mode) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, rate, mode, hang,
                connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withHang(boolean value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                value, connectionFault, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withConnectionFault(ConnectionFault value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, value, async, lateBooking, amountDelta, seed);
    }

    public FaultSpec withAsync(AsyncProcessing value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, value, lateBooking, amountDelta, seed);
    }

    public FaultSpec withSeed(Long value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, amountDelta, value);
    }

    public FaultSpec withLateBooking(LateBooking value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, value, amountDelta, seed);
    }

    public FaultSpec withAmountDelta(long value) {
        return new FaultSpec(operation, latency, errorRate, errorStatus, declineRate, declineCode, dropResponseRate, dropMode,
                hang, connectionFault, async, lateBooking, value, seed);
    }

    boolean refusesConnections() {
        return connectionFault != null && connectionFault.mode() == ConnectionFault.Mode.REFUSE;
    }
}
