package dev.payments.pgsim.admin;

import dev.payments.pgsim.fault.AsyncProcessing;
import dev.payments.pgsim.fault.ConnectionFault;
import dev.payments.pgsim.fault.DropMode;
import dev.payments.pgsim.fault.FaultSpec;
import dev.payments.pgsim.fault.LateBooking;
import dev.payments.pgsim.fault.Latency;
import dev.payments.pgsim.fault.Operation;
import dev.payments.pgsim.ledger.DeclineReason;
import java.util.Locale;
import java.util.Map;

/**
 * The admin JSON for one fault: every field optional. Omitted fields come from {@code profile}
 * when given, else mean "no such fault".
 */
record FaultRequest(
        String profile,
        Operation operation,
        Latency latency,
        Double errorRate,
        Integer errorStatus,
        Double declineRate,
        DeclineReason declineCode,
        Double dropResponseRate,
        DropMode dropMode,
        Boolean hang,
        ConnectionFaultRequest connectionFault,
        AsyncRequest async,
        LateBookingRequest lateBooking,
        Long amountDelta,
        Long seed) {

    /** Omitted: rate 1.0, afterMs 0, the simulator's callback URL. */
    record LateBookingRequest(Double rate, Long afterMs, String callbackUrl) {

        LateBooking toLateBooking() {
            return new LateBooking(rate == null ? 1.0 : rate, afterMs == null ? 0 : afterMs, callbackUrl);
        }
    }

    record ConnectionFaultRequest(ConnectionFault.Mode mode, Double rate) {

        ConnectionFault toFault() {
            return new ConnectionFault(mode, rate == null ? 1.0 : rate);
        }
    }

    /** Omitted fields default to field report 001's processing (70 %, 1-5 s, 2:1 limit/invalid card). */
    record AsyncRequest(Double successRate, Latency delay, Map<DeclineReason, Integer> declines, String callbackUrl) {

        AsyncProcessing toAsync() {
            AsyncProcessing base = AsyncProcessing.fieldReport001();
            return new AsyncProcessing(
                    successRate != null ? successRate : base.successRate(),
                    delay != null ? delay : base.delay(),
                    declines != null ? declines : base.declines(),
                    callbackUrl);
        }
    }

    FaultSpec toSpec() {
        FaultSpec spec = base();
        if (operation != null) {
            spec = spec.withOperation(operation);
        }
        if (latency != null) {
            spec = spec.withLatency(latency);
        }
        if (errorRate != null) {
            spec = spec.withErrorRate(errorRate);
        }
        if (errorStatus != null) {
            spec = spec.withErrorStatus(errorStatus);
        }
        if (declineRate != null || declineCode != null) {
            spec = spec.withDecline(declineRate != null ? declineRate : spec.declineRate(),
                    declineCode != null ? declineCode : spec.declineCode());
        }
        if (dropResponseRate != null || dropMode != null) {
            spec = spec.withDropResponse(dropResponseRate != null ? dropResponseRate : spec.dropResponseRate(),
                    dropMode != null ? dropMode : spec.dropMode());
        }
        if (hang != null) {
            spec = spec.withHang(hang);
        }
        if (connectionFault != null) {
            spec = spec.withConnectionFault(connectionFault.toFault());
        }
        if (async != null) {
            spec = spec.withAsync(async.toAsync());
        }
        if (lateBooking != null) {
            spec = spec.withLateBooking(lateBooking.toLateBooking());
        }
        if (amountDelta != null) {
            spec = spec.withAmountDelta(amountDelta);
        }
        return spec.withSeed(seed);
    }

    private FaultSpec base() {
        if (profile == null) {
            return FaultSpec.none(Operation.ALL);
        }
        return switch (profile.toLowerCase(Locale.ROOT)) {
            case "001", "field-report-001" -> FaultSpec.fieldReport001();
            default -> throw new IllegalArgumentException("profile must be '001' (field-report-001), got '" + profile + "'");
        };
    }
}
