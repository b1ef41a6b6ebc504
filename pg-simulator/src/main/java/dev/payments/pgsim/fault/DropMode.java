package dev.payments.pgsim.fault;

/** How an answer that the PG has already produced (and booked) gets lost on the way back. */
public enum DropMode {
    /** Keep the connection open and never answer: the client sees a read timeout. */
    HANG,
    /** Reset the connection (RST): the client sees "connection reset". */
    RESET
}
