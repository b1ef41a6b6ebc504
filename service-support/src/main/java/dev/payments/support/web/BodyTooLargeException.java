package dev.payments.support.web;

import java.io.IOException;

/**
 * A request body grew past the limit while it was being read. An {@link IOException}, so whatever was reading it
 * (a message converter, Jackson) stops; {@link CommonApiProblems} finds it in the cause chain and answers 413.
 */
public class BodyTooLargeException extends IOException {

    private final long maxBytes;

    public BodyTooLargeException(long maxBytes) {
        super(detail(maxBytes));
        this.maxBytes = maxBytes;
    }

    public long maxBytes() {
        return maxBytes;
    }

    static String detail(long maxBytes) {
        return "The request body is larger than " + maxBytes + " bytes";
    }
}
