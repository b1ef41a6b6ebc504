package dev.payments.pgsim.fault;

import java.util.Objects;

/**
 * A fault below HTTP. REFUSE closes the API listener (and its open connections) while set, so
 * clients get "connection refused" — it can only be scoped to {@code all} and has no rate, since
 * a port either listens or not. RESET answers a request with a TCP RST, with the given rate.
 */
public record ConnectionFault(Mode mode, double rate) {

    public enum Mode {
        REFUSE,
        RESET
    }

    public ConnectionFault {
        Objects.requireNonNull(mode, "connectionFault.mode is required (REFUSE or RESET)");
        Rates.check("connectionFault.rate", rate);
        if (mode == Mode.REFUSE && rate != 1.0) {
            throw new IllegalArgumentException("connectionFault REFUSE takes no rate (a port listens or not); omit rate or use 1.0");
        }
    }

    public static ConnectionFault refuse() {
        return new ConnectionFault(Mode.REFUSE, 1.0);
    }

    public static ConnectionFault reset(double rate) {
        return new ConnectionFault(Mode.RESET, rate);
    }
}
