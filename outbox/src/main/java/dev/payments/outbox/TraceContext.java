package dev.payments.outbox;

/** Where the outbox finds the W3C {@code traceparent} of the current request, stored with each event. */
@FunctionalInterface
public interface TraceContext {

    TraceContext NONE = () -> null;

    /** The current traceparent, or null outside a trace. */
    String currentTraceparent();
}
